/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/header-attr.c - an event's attr as perf 6.1's
 * perf_event_attr__fprintf() prints it in the "# event :" lines of
 * --header-only, and in perf evlist -v's lines.
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "pdata/reader.h"
#include "report/inspect/header-int.h"

struct bit_name {
	uint64_t bit;
	const char *name;
};

static const struct bit_name sample_type_names[] = {
	{ PD_SAMPLE_IP, "IP" },
	{ PD_SAMPLE_TID, "TID" },
	{ PD_SAMPLE_TIME, "TIME" },
	{ PD_SAMPLE_ADDR, "ADDR" },
	{ PD_SAMPLE_READ, "READ" },
	{ PD_SAMPLE_CALLCHAIN, "CALLCHAIN" },
	{ PD_SAMPLE_ID, "ID" },
	{ PD_SAMPLE_CPU, "CPU" },
	{ PD_SAMPLE_PERIOD, "PERIOD" },
	{ PD_SAMPLE_STREAM_ID, "STREAM_ID" },
	{ PD_SAMPLE_RAW, "RAW" },
	{ PD_SAMPLE_BRANCH_STACK, "BRANCH_STACK" },
	{ PD_SAMPLE_REGS_USER, "REGS_USER" },
	{ PD_SAMPLE_STACK_USER, "STACK_USER" },
	{ PD_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ PD_SAMPLE_REGS_INTR, "REGS_INTR" },
	{ PD_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ PD_SAMPLE_WEIGHT, "WEIGHT" },
	{ PD_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ PD_SAMPLE_AUX, "AUX" },
	{ PD_SAMPLE_CGROUP, "CGROUP" },
	{ PD_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ PD_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ PD_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	{ 0, NULL },
};

static const struct bit_name branch_type_names[] = {
	{ PD_BRANCH_USER, "USER" },
	{ PD_BRANCH_KERNEL, "KERNEL" },
	{ PD_BRANCH_HV, "HV" },
	{ PD_BRANCH_ANY, "ANY" },
	{ PD_BRANCH_ANY_CALL, "ANY_CALL" },
	{ PD_BRANCH_ANY_RETURN, "ANY_RETURN" },
	{ PD_BRANCH_IND_CALL, "IND_CALL" },
	{ PD_BRANCH_ABORT_TX, "ABORT_TX" },
	{ PD_BRANCH_IN_TX, "IN_TX" },
	{ PD_BRANCH_NO_TX, "NO_TX" },
	{ PD_BRANCH_COND, "COND" },
	{ PD_BRANCH_CALL_STACK, "CALL_STACK" },
	{ PD_BRANCH_IND_JUMP, "IND_JUMP" },
	{ PD_BRANCH_CALL, "CALL" },
	{ PD_BRANCH_NO_FLAGS, "NO_FLAGS" },
	{ PD_BRANCH_NO_CYCLES, "NO_CYCLES" },
	{ PD_BRANCH_TYPE_SAVE, "TYPE_SAVE" },
	{ PD_BRANCH_HW_INDEX, "HW_INDEX" },
	{ PD_BRANCH_PRIV_SAVE, "PRIV_SAVE" },
	{ 0, NULL },
};

static const struct bit_name read_format_names[] = {
	{ PD_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ PD_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ PD_FORMAT_ID, "ID" },
	{ PD_FORMAT_GROUP, "GROUP" },
	{ PD_FORMAT_LOST, "LOST" },
	{ 0, NULL },
};

/* the 1-bit flags in perf 6.1's print order; precise_ip is 2 bits */
static const char *const flag_names[ATTR_FLAGS_61] = {
	[PD_ATTR_DISABLED] = "disabled",
	[PD_ATTR_INHERIT] = "inherit",
	[PD_ATTR_PINNED] = "pinned",
	[PD_ATTR_EXCLUSIVE] = "exclusive",
	[PD_ATTR_EXCLUDE_USER] = "exclude_user",
	[PD_ATTR_EXCLUDE_KERNEL] = "exclude_kernel",
	[PD_ATTR_EXCLUDE_HV] = "exclude_hv",
	[PD_ATTR_EXCLUDE_IDLE] = "exclude_idle",
	[PD_ATTR_MMAP] = "mmap",
	[PD_ATTR_COMM] = "comm",
	[PD_ATTR_FREQ] = "freq",
	[PD_ATTR_INHERIT_STAT] = "inherit_stat",
	[PD_ATTR_ENABLE_ON_EXEC] = "enable_on_exec",
	[PD_ATTR_TASK] = "task",
	[PD_ATTR_WATERMARK] = "watermark",
	[PD_ATTR_PRECISE_IP] = "precise_ip",
	[PD_ATTR_MMAP_DATA] = "mmap_data",
	[PD_ATTR_SAMPLE_ID_ALL] = "sample_id_all",
	[PD_ATTR_EXCLUDE_HOST] = "exclude_host",
	[PD_ATTR_EXCLUDE_GUEST] = "exclude_guest",
	[PD_ATTR_EXCLUDE_CALLCHAIN_KERNEL] = "exclude_callchain_kernel",
	[PD_ATTR_EXCLUDE_CALLCHAIN_USER] = "exclude_callchain_user",
	[PD_ATTR_MMAP2] = "mmap2",
	[PD_ATTR_COMM_EXEC] = "comm_exec",
	[PD_ATTR_USE_CLOCKID] = "use_clockid",
	[PD_ATTR_CONTEXT_SWITCH] = "context_switch",
	[PD_ATTR_WRITE_BACKWARD] = "write_backward",
	[PD_ATTR_NAMESPACES] = "namespaces",
	[PD_ATTR_KSYMBOL] = "ksymbol",
	[PD_ATTR_BPF_EVENT] = "bpf_event",
	[PD_ATTR_AUX_OUTPUT] = "aux_output",
	[PD_ATTR_CGROUP] = "cgroup",
	[PD_ATTR_TEXT_POKE] = "text_poke",
	[PD_ATTR_BUILD_ID] = "build_id",
	[PD_ATTR_INHERIT_THREAD] = "inherit_thread",
	[PD_ATTR_REMOVE_ON_EXEC] = "remove_on_exec",
	[PD_ATTR_SIGTRAP] = "sigtrap",
};

/*
 * perf formats every value into one buffer; a bit set whose bits all lack
 * a name writes nothing, and the previous field's text is printed again.
 */
struct attr_out {
	FILE *out;
	char buf[1024];
	bool evlist;		/* perf evlist -v's " name: value", ',' between */
	bool first;
};

static void
attr_field(struct attr_out *a, const char *name)
{
	if (!a->evlist)
		fprintf(a->out, ", %s = %s", name, a->buf);
	else
		fprintf(a->out, "%s %s: %s", a->first ? "" : ",", name, a->buf);
	a->first = false;
}

static void
attr_unsigned(struct attr_out *a, const char *name, uint64_t v)
{
	if (!v)
		return;
	snprintf(a->buf, sizeof(a->buf), "%" PRIu64, v);
	attr_field(a, name);
}

static void
attr_hex(struct attr_out *a, const char *name, uint64_t v)
{
	if (!v)
		return;
	snprintf(a->buf, sizeof(a->buf), "%#" PRIx64, v);
	attr_field(a, name);
}

static void
attr_bits(struct attr_out *a, const char *name, uint64_t v,
	  const struct bit_name *names)
{
	size_t len = 0;

	if (!v)
		return;
	for (; names->name; names++) {
		if (!(v & names->bit))
			continue;
		len += (size_t)snprintf(a->buf + len, sizeof(a->buf) - len,
					"%s%s", len ? "|" : "", names->name);
		if (len >= sizeof(a->buf))
			len = sizeof(a->buf) - 1;
	}
	attr_field(a, name);
}

static void attr_print(struct attr_out *ao, const struct pd_attr *attr);

void
rep_attr_print(FILE *out, const struct pd_attr *attr)
{
	struct attr_out a = { .out = out, .buf = "" };

	attr_print(&a, attr);
}

void
rep_attr_print_evlist(FILE *out, const struct pd_attr *attr)
{
	struct attr_out a = { .out = out, .buf = "", .evlist = true,
			      .first = true };

	attr_print(&a, attr);
}

static void
attr_print(struct attr_out *ao, const struct pd_attr *attr)
{
	struct attr_out a = *ao;
	unsigned int bit;

	attr_unsigned(&a, "type", attr->type);
	attr_unsigned(&a, "size", attr->size);
	attr_hex(&a, "config", attr->config);
	attr_unsigned(&a, "{ sample_period, sample_freq }",
		      attr->sample_period);
	attr_bits(&a, "sample_type", attr->sample_type, sample_type_names);
	attr_bits(&a, "read_format", attr->read_format, read_format_names);
	for (bit = 0; bit < ATTR_FLAGS_61; bit++) {
		if (!flag_names[bit])
			continue;
		if (bit == PD_ATTR_PRECISE_IP)
			attr_unsigned(&a, flag_names[bit],
				      pd_attr_precise_ip(attr));
		else
			attr_unsigned(&a, flag_names[bit],
				      (attr->flags >> bit) & 1);
	}
	attr_unsigned(&a, "{ wakeup_events, wakeup_watermark }",
		      attr->wakeup_events);
	attr_unsigned(&a, "bp_type", attr->bp_type);
	attr_hex(&a, "{ bp_addr, config1 }", attr->config1);
	attr_hex(&a, "{ bp_len, config2 }", attr->config2);
	attr_bits(&a, "branch_sample_type", attr->branch_sample_type,
		  branch_type_names);
	attr_hex(&a, "sample_regs_user", attr->sample_regs_user);
	attr_unsigned(&a, "sample_stack_user", attr->sample_stack_user);
	if (attr->clockid) {
		snprintf(a.buf, sizeof(a.buf), "%" PRId64,
			 (int64_t)attr->clockid);
		attr_field(&a, "clockid");
	}
	attr_hex(&a, "sample_regs_intr", attr->sample_regs_intr);
	attr_unsigned(&a, "aux_watermark", attr->aux_watermark);
	attr_unsigned(&a, "sample_max_stack", attr->sample_max_stack);
	attr_unsigned(&a, "aux_sample_size", attr->aux_sample_size);
	attr_unsigned(&a, "sig_data", attr->sig_data);
}
