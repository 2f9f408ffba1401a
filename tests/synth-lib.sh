# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/synth-lib.sh - sourced by the tests that write a recording of a
# program that never runs (tests/tools/pd-mk*): the program's layout, read
# with binutils.

# text_ FILE: the start, length and file offset of its executable segment
text_() {
	set -- $(readelf -lW "$1" | awk '$1 == "LOAD" && / R E / {
		print $2, $3, $6; exit }')
	[ $# = 3 ] || return 0
	printf '0x%x 0x%x 0x%x\n' $(($2 - $2 % 4096)) $(($3 + $2 % 4096)) \
		$(($1 - $1 % 4096))
}

# addr_ FILE SYMBOL: the symbol's address
addr_() {
	nm "$1" | awk -v s="$2" '$3 == s { print "0x" $1; exit }'
}

# return_addr_ OBJDUMP FILE CALLER CALLEE: the address after CALLER's first
# call of CALLEE (its return address), from OBJDUMP's disassembly
return_addr_() {
	"$1" -d --no-show-raw-insn "$2" |
		awk -v caller="<$3>:" -v callee="<$4>" '
		     $2 == caller { in_f = 1; next }
		     in_f && /^$/ { exit }
		     in_f && want { sub(":", "", $1); print "0x" $1; exit }
		     in_f && index($0, callee) && $2 ~ /^(call|bl)/ { want = 1 }'
}
