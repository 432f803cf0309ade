/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gc_simulate.h - the simulate command of gc.f2fs (tools/gc/gc_simulate.c), called from gc.c. */
#ifndef GC_SIM_CLI_H
#define GC_SIM_CLI_H

/* gc.f2fs simulate: @argv[0] is "simulate".  Returns the exit status: 0, 1 when the
 * simulation stopped early (out of free sections), 8 on an operational error; usage
 * errors exit 16 directly. */
int gc_simulate_main(int argc, char **argv);

#endif
