// SPDX-License-Identifier: GPL-2.0
/* /dev/acceldevN: each open file is one of the device's 255 contexts, with
 * the ioctls CREATE_BUFFER (0), RUN (1) and WAIT (3) of the original
 * acceldev.h (bare request numbers).
 */
#include <linux/file.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "acceldev.h"

static bool ctx_in_error(struct acceldev_ctx *ctx)
{
	return READ_ONCE(acceldev_config(ctx->dev, ctx->id)[ACCELDEV_CONFIG_STATUS]) & ACCELDEV_CONTEXT_STATUS_ERROR;
}

static bool ctx_fence_reached(struct acceldev_ctx *ctx, u32 fence)
{
	const __le32 *counter = (const __le32 *)(acceldev_config(ctx->dev, ctx->id) + ACCELDEV_CONFIG_FENCE_COUNTER);

	return (s32)(le32_to_cpu(READ_ONCE(*counter)) - fence) >= 0;
}

static int acceldev_ctx_open(struct inode *inode, struct file *file)
{
	struct acceldev *dev = container_of(file->private_data, struct acceldev, misc);
	struct acceldev_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	int id;

	if (!ctx)
		return -ENOMEM;
	id = ida_alloc_max(&dev->contexts, ACCELDEV_MAX_CONTEXTS - 1, GFP_KERNEL);
	if (id < 0) {
		kfree(ctx);
		return id; /* -ENOSPC once all 255 are open */
	}
	ctx->dev = dev;
	ctx->id = id;
	kref_init(&ctx->ref);
	mutex_init(&ctx->lock);
	mutex_lock(&dev->feed_lock);
	ctx->last_run_fence = dev->fence_seq;
	mutex_unlock(&dev->feed_lock);
	memset(acceldev_config(dev, id), 0, ACCELDEV_CONTEXT_CONFIG_SIZE);
	file->private_data = ctx;
	return 0;
}

/* The last reference (the device file or a buffer) is gone: once every RUN
 * of the context has completed, its config entry is zeroed and its id freed,
 * so nothing of it reaches a new context with the same id.
 */
static void ctx_free(struct kref *ref)
{
	struct acceldev_ctx *ctx = container_of(ref, struct acceldev_ctx, ref);
	struct acceldev *dev = ctx->dev;

	acceldev_wait_runs(ctx);
	memset(acceldev_config(dev, ctx->id), 0, ACCELDEV_CONTEXT_CONFIG_SIZE);
	ida_free(&dev->contexts, ctx->id);
	kfree(ctx);
}

void acceldev_ctx_put(struct acceldev_ctx *ctx)
{
	kref_put(&ctx->ref, ctx_free);
}

static int acceldev_ctx_release(struct inode *inode, struct file *file)
{
	acceldev_ctx_put(file->private_data);
	return 0;
}

static long acceldev_run(struct acceldev_ctx *ctx, void __user *uarg)
{
	struct acceldev_ioctl_run arg;
	struct acceldev_buffer *code;
	struct fd f;
	long err = 0;

	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	f = fdget(arg.cfd);
	if (!f.file)
		return -EBADF;
	code = acceldev_code_buffer(f.file, ctx);
	if (!code || (arg.addr | arg.size) & 3) {
		err = -EINVAL;
	} else if (ctx_in_error(ctx)) {
		err = -EIO; /* refused: the device would skip it without a word */
	} else {
		const dma_addr_t pt = acceldev_buffer_page_table(code);
		const u32 w[ACCELDEV_DEVICE_CMD_WORDS] = { ACCELDEV_DEVICE_CMD_TYPE_RUN | ctx->id << 4, lower_32_bits(pt),
							   upper_32_bits(pt), arg.addr, arg.size };

		/* The code buffer cannot be released before the RUN is queued:
		 * f holds it, and its release waits for the RUN.
		 */
		acceldev_submit_run(ctx, w);
	}
	fdput(f);
	return err;
}

/* The context's error is checked first, at every wake-up; a signal ends
 * the wait with EINTR (not restarted).
 */
static long acceldev_wait(struct acceldev_ctx *ctx, void __user *uarg)
{
	struct acceldev_ioctl_wait arg;

	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	wait_event_interruptible(ctx->dev->wq, ctx_in_error(ctx) || ctx_fence_reached(ctx, arg.fence_wait));
	if (ctx_in_error(ctx))
		return -EIO;
	return ctx_fence_reached(ctx, arg.fence_wait) ? 0 : -EINTR;
}

static long acceldev_ctx_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct acceldev_ctx *ctx = file->private_data;

	switch (cmd) {
	case ACCELDEV_IOCTL_CREATE_BUFFER:
		return acceldev_buffer_create(ctx, (void __user *)arg);
	case ACCELDEV_IOCTL_RUN:
		return acceldev_run(ctx, (void __user *)arg);
	case ACCELDEV_IOCTL_WAIT:
		return acceldev_wait(ctx, (void __user *)arg);
	default:
		return -ENOTTY;
	}
}

const struct file_operations acceldev_ctx_fops = {
	.owner = THIS_MODULE,
	.open = acceldev_ctx_open,
	.release = acceldev_ctx_release,
	.unlocked_ioctl = acceldev_ctx_ioctl,
	.llseek = noop_llseek,
};
