/* SPDX-License-Identifier: GPL-2.0 */
/* The Acceldev kernel driver (docs/linux-driver.md): what its parts share.
 * device.c: the PCI device, its command queue, fences and interrupt;
 * context.c: /dev/acceldevN, one context per open file, and its ioctls;
 * buffer.c: buffer files, their pages, page tables and mmap.
 */
#ifndef ACCELDEV_DRIVER_H
#define ACCELDEV_DRIVER_H

#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/wait.h>

#include "acceldev_uapi.h"
#include "bar0_regs.h"

/* The INTR bits of Acceldev itself, which the driver enables and services. */
#define ACCELDEV_INTR_ALL 0x3Fu

struct acceldev {
	struct pci_dev *pdev;
	void __iomem *bar0;
	struct miscdevice misc;
	char name[16];
	int index;
	void *configs; /* the 255 context configs the device reads (coherent) */
	dma_addr_t configs_dma;
	struct ida contexts;
	/* The feed: the FREE check and the five FEED words of one command,
	 * driver fence numbers and contexts' last_run_fence.
	 */
	struct mutex feed_lock;
	u32 fence_seq; /* the last driver FENCE fed */
	wait_queue_head_t wq; /* woken by every interrupt */
};

struct acceldev_ctx {
	struct acceldev *dev;
	struct kref ref; /* the device file and each of its buffers */
	unsigned int id;
	struct mutex lock;
	u16 slots; /* bit s: slot s is bound to a data buffer */
	u32 last_run_fence; /* the driver FENCE behind the last RUN (feed_lock) */
};

/* device.c */
void acceldev_submit(struct acceldev *dev, const u32 w[ACCELDEV_DEVICE_CMD_WORDS]);
void acceldev_submit_run(struct acceldev_ctx *ctx, const u32 w[ACCELDEV_DEVICE_CMD_WORDS]);
void acceldev_wait_runs(struct acceldev_ctx *ctx);
u8 *acceldev_config(struct acceldev *dev, unsigned int ctx);

/* context.c */
extern const struct file_operations acceldev_ctx_fops;
void acceldev_ctx_put(struct acceldev_ctx *ctx);

/* buffer.c */
int acceldev_fs_init(void);
void acceldev_fs_exit(void);
long acceldev_buffer_create(struct acceldev_ctx *ctx, void __user *uarg);
/* The code buffer of file `f` if it is one of `ctx`'s, else NULL. */
struct acceldev_buffer *acceldev_code_buffer(struct file *f, struct acceldev_ctx *ctx);
dma_addr_t acceldev_buffer_page_table(struct acceldev_buffer *b);

#endif
