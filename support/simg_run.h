/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simg_run.h - f2fs-tools' -S (sparse mode) for tools that write a volume: the Android
 * sparse image is unpacked to a raw file beside it, worked on, packed to a second file
 * and renamed over the original, so that until the rename the image is as it was.
 */
#ifndef ZS_SIMG_RUN_H
#define ZS_SIMG_RUN_H

/* Run @fn on a raw copy of sparse image @img; @prog names the tool in messages.  Returns
 * @fn's exit status, or 1 when the image could not be unpacked or packed back (the image
 * then unchanged). */
int zs_simg_run(const char *prog, const char *img, int (*fn)(const char *raw, void *arg),
		void *arg);

#endif
