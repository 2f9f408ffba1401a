/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/buildid-int.h - build-ids read from notes rather than from an
 * ELF file: each returns the id's size, 0 when there is none.
 */
#ifndef PD_RECORD_BUILDID_INT_H
#define PD_RECORD_BUILDID_INT_H

#include <stddef.h>
#include <stdint.h>

#include "pdata/abi.h"

/* The first GNU build-id note among len bytes of ELF notes. */
size_t rec_notes_build_id(const unsigned char *p, size_t len,
			  uint8_t out[PD_BUILD_ID_SIZE]);

size_t rec_kernel_build_id(uint8_t out[PD_BUILD_ID_SIZE]);
/* module: the name /sys/module knows it by ("ext4") */
size_t rec_module_build_id(const char *module, uint8_t out[PD_BUILD_ID_SIZE]);
size_t rec_vdso_build_id(uint8_t out[PD_BUILD_ID_SIZE]);

#endif /* PD_RECORD_BUILDID_INT_H */
