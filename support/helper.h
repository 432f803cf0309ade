/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * helper.h - the tools' helper library (support/libzf2fs_support.la, not installed): what the
 * front-ends and tests share that has no place in libzf2fs's contract, under a prefix of its
 * own (zs_), so that no name of it reads as the library's.  support/cli.c prints and exits,
 * which the library never does (lib/format/log.c); support/test_hooks.c holds the memory
 * device and the write-fault counters the tests drive.
 */
#ifndef ZS_HELPER_H
#define ZS_HELPER_H

#include <stdint.h>
#include <stdio.h>

#include "zf2fs/zf2fs.h"

/* ---- command lines (the tools' shared conventions) ------------------------------------ */
#define ZS_EXIT_USAGE 16
/* Print "PROG: <message>" and a --help hint on stderr, exit 16. */
void zs_usage_error(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* A number (decimal or 0x hex) within [min, max], or a usage error naming @what. */
uint64_t zs_parse_u64(const char *prog, const char *s, const char *what, uint64_t min,
		      uint64_t max);
/* The --version line on @out: "PROG (zf2fs-tools) VERSION" and +NAME or -NAME for each
 * optional feature of this build (e.g. "+zoned"), ending in a newline.  Returns 0, or
 * -EIO when @out could not be written. */
int zs_print_version(FILE *out, const char *prog);
/* A struct zf2fs_log function for the tools: "@prog: [ERROR: |WARNING: ]message" on
 * stderr; @prog (the log's arg) is the tool's name. */
void zs_cli_log(void *prog, enum zf2fs_msg_kind kind, const char *msg);
/* Why a tool that moves blocks must not change a volume whose checkpoint has flags
 * @ckpt_flags ("was not cleanly unmounted", ...), or NULL when it may. */
const char *zs_unclean_reason(uint32_t ckpt_flags);
/* The blocks a batch of moves holds in memory before its checkpoint (defrag.f2fs, gc.f2fs
 * collect): @given (--batch-blocks), or by default 128 MiB of @vol's blocks (32768 of
 * 4 KiB, 8192 of 16 KiB). */
uint64_t zs_move_batch_blocks(struct zf2fs_vol *vol, uint64_t given);

/* ---- test hooks ------------------------------------------------------------------------ */
/* A device in memory: @bytes of zeros. */
int zs_dev_open_memory(uint64_t bytes, const struct zf2fs_log *log,
		       struct zf2fs_dev **ret_dev);
/* A host-managed zoned device in memory: @bytes in zones of @zone_bytes, each sequential
 * zone writable up to @cap_bytes, the first @nr_conv zones conventional.  Writes to a
 * sequential zone must start at its write pointer (-EIO otherwise); mkfs's zone reset
 * empties them. */
int zs_dev_open_memory_zoned(uint64_t bytes, uint64_t zone_bytes, uint64_t cap_bytes,
			     uint32_t nr_conv, const struct zf2fs_log *log,
			     struct zf2fs_dev **ret_dev);
/* Copy one memory device's bytes (and write pointers) onto another of the same kind. */
int zs_dev_copy_memory(struct zf2fs_dev *dst, const struct zf2fs_dev *src);
/* The bytes of a memory device; NULL for other devices. */
const uint8_t *zs_dev_memory(const struct zf2fs_dev *dev);
/* Fault injection: the @n-th write from now on (1 = next) and all after fail with -EIO.
 * 0 turns it off.  Zeroing and discards count as writes. */
void zs_dev_fail_writes_after(struct zf2fs_dev *dev, unsigned long n);
/* The same with @n from ZF2FS_FAULT_WRITES in the environment, when it is set (the
 * tests' fault at the N-th write of a tool). */
void zs_dev_fail_writes_from_env(struct zf2fs_dev *dev);
/* Tests: ZF2FS_LOAD_FLUSH=N in the environment makes a tree load (sload.f2fs, mkfs.f2fs
 * --root-dir) flush its transaction every N queued blocks or inodes instead of 16384 and
 * 4096, so that a small tree spans several flushes.  Sets @o's flush sizes. */
struct zf2fs_load_opts;
void zs_test_load_flush(struct zf2fs_load_opts *o);
/* Count of successful writes so far. */
unsigned long zs_dev_write_count(const struct zf2fs_dev *dev);
/* Make every read not wholly inside bytes [@start, @end) fail with -EACCES and be counted
 * (zs_dev_reads_refused); @end 0 lifts the limit. */
void zs_dev_restrict_reads(struct zf2fs_dev *dev, uint64_t start, uint64_t end);
unsigned long zs_dev_reads_refused(const struct zf2fs_dev *dev);
/* Write "byte-offset length" to @fd for every read that succeeds (-1: stop); tests count
 * how often a run reads each block. */
void zs_dev_trace_reads(struct zf2fs_dev *dev, int fd);

#endif
