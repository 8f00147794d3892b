// SPDX-License-Identifier: GPL-2.0
/* Buffers: zero-filled pages of host memory and their page table (1024
 * 32-bit PTEs in a coherent page), handed to user space as a file that
 * mmap(MAP_SHARED) maps. The pages belong to a second, internal file that
 * the buffer file and every mapping hold: closing the buffer's last
 * descriptor releases the buffer (it waits for the context's RUNs and
 * unbinds its slot) while mappings keep its own pages.
 */
#include <linux/anon_inodes.h>
#include <linux/dma-mapping.h>
#include <linux/file.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/pseudo_fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "acceldev.h"

#define ACCELDEV_FS_MAGIC 0x61636476 /* "acdv" */

static_assert(ACCELDEV_PAGE_SIZE == PAGE_SIZE, "a buffer page is a CPU page");
static_assert(ACCELDEV_BUFFER_MAX_SIZE / ACCELDEV_PAGE_SIZE * 4 == ACCELDEV_PAGE_SIZE, "one page table per buffer");

struct acceldev_pages {
	struct device *dma_dev;
	unsigned int count;
	struct page **pages;
	dma_addr_t *dma;
	__le32 *pt;
	dma_addr_t pt_dma;
};

struct acceldev_buffer {
	struct acceldev_ctx *ctx;
	enum acceldev_buffer_type type;
	int slot; /* a data buffer's; -1 for a code buffer */
	struct file *memory; /* the pages' file */
	dma_addr_t pt_dma;
};

static struct vfsmount *acceldev_mnt;

static void pages_free(struct acceldev_pages *p)
{
	unsigned int i;

	for (i = 0; i < p->count; ++i) {
		dma_unmap_page(p->dma_dev, p->dma[i], PAGE_SIZE, DMA_BIDIRECTIONAL);
		__free_page(p->pages[i]);
	}
	if (p->pt)
		dma_free_coherent(p->dma_dev, ACCELDEV_PAGE_SIZE, p->pt, p->pt_dma);
	kvfree(p->pages);
	kvfree(p->dma);
	kfree(p);
}

static struct acceldev_pages *pages_alloc(struct acceldev *dev, unsigned int size)
{
	const unsigned int n = DIV_ROUND_UP(size, PAGE_SIZE);
	struct acceldev_pages *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	p->dma_dev = &dev->pdev->dev;
	p->pages = kvcalloc(n, sizeof(*p->pages), GFP_KERNEL);
	p->dma = kvcalloc(n, sizeof(*p->dma), GFP_KERNEL);
	p->pt = dma_alloc_coherent(p->dma_dev, ACCELDEV_PAGE_SIZE, &p->pt_dma, GFP_KERNEL);
	if (!p->pages || !p->dma || !p->pt)
		goto fail;
	for (; p->count < n; ++p->count) {
		struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);
		dma_addr_t dma;

		if (!page)
			goto fail;
		dma = dma_map_page(p->dma_dev, page, 0, PAGE_SIZE, DMA_BIDIRECTIONAL);
		if (dma_mapping_error(p->dma_dev, dma)) {
			__free_page(page);
			goto fail;
		}
		p->pages[p->count] = page;
		p->dma[p->count] = dma;
		/* bits 4..31: physical address bits 12..39 */
		p->pt[p->count] = cpu_to_le32((u32)(dma >> 12) << 4 | ACCELDEV_PTE_PRESENT);
	}
	return p;
fail:
	pages_free(p);
	return NULL;
}

/* Past the buffer's last page a mapping raises SIGBUS. */
static vm_fault_t pages_fault(struct vm_fault *vmf)
{
	struct acceldev_pages *p = vmf->vma->vm_private_data;

	if (vmf->pgoff >= p->count)
		return VM_FAULT_SIGBUS;
	vmf->page = p->pages[vmf->pgoff];
	get_page(vmf->page);
	return 0;
}

static const struct vm_operations_struct pages_vm_ops = {
	.fault = pages_fault,
};

static int pages_release(struct inode *inode, struct file *file)
{
	pages_free(file->private_data);
	return 0;
}

static const struct file_operations pages_fops = {
	.owner = THIS_MODULE,
	.release = pages_release,
};

static int buffer_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct acceldev_buffer *b = file->private_data;

	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	vma->vm_flags |= VM_DONTEXPAND | VM_DONTDUMP;
	vma->vm_ops = &pages_vm_ops;
	vma->vm_private_data = b->memory->private_data;
	vma_set_file(vma, b->memory);
	return 0;
}

/* Closing the last descriptor: every RUN already scheduled on the context
 * has run before the pages are let go, and a data buffer's slot is unbound
 * (behind those RUNs) and free again.
 */
static int buffer_release(struct inode *inode, struct file *file)
{
	struct acceldev_buffer *b = file->private_data;
	struct acceldev_ctx *ctx = b->ctx;

	if (b->slot >= 0) {
		const u32 w[ACCELDEV_DEVICE_CMD_WORDS] = { ACCELDEV_DEVICE_CMD_TYPE_BIND_SLOT | ctx->id << 4, b->slot };

		acceldev_submit(ctx->dev, w);
	}
	acceldev_wait_runs(ctx);
	if (b->slot >= 0) {
		mutex_lock(&ctx->lock);
		ctx->slots &= ~BIT(b->slot);
		mutex_unlock(&ctx->lock);
	}
	fput(b->memory);
	acceldev_ctx_put(ctx);
	kfree(b);
	return 0;
}

static const struct file_operations buffer_fops = {
	.owner = THIS_MODULE,
	.release = buffer_release,
	.mmap = buffer_mmap,
};

struct acceldev_buffer *acceldev_code_buffer(struct file *f, struct acceldev_ctx *ctx)
{
	struct acceldev_buffer *b = f->private_data;

	return f->f_op == &buffer_fops && b->ctx == ctx && b->type == BUFFER_TYPE_CODE ? b : NULL;
}

dma_addr_t acceldev_buffer_page_table(struct acceldev_buffer *b)
{
	return b->pt_dma;
}

/* The buffer's file: a regular file of the buffer's size for fstat. */
static struct file *buffer_file(struct acceldev_buffer *b, unsigned int size)
{
	struct inode *inode = alloc_anon_inode(acceldev_mnt->mnt_sb);
	struct file *file;

	if (IS_ERR(inode))
		return ERR_CAST(inode);
	inode->i_mode = S_IFREG | 0600;
	inode->i_size = size;
	__module_get(THIS_MODULE); /* put by __fput, as for an opened file */
	file = alloc_file_pseudo(inode, acceldev_mnt, "acceldev-buffer", O_RDWR, &buffer_fops);
	if (IS_ERR(file)) {
		module_put(THIS_MODULE);
		iput(inode);
		return file;
	}
	file->private_data = b;
	return file;
}

static int slot_take(struct acceldev_ctx *ctx)
{
	int slot;

	mutex_lock(&ctx->lock);
	slot = ffz(ctx->slots);
	if (slot < ACCELDEV_NUM_BUFFERS)
		ctx->slots |= BIT(slot);
	else
		slot = -ENOSPC;
	mutex_unlock(&ctx->lock);
	return slot;
}

static void slot_put(struct acceldev_ctx *ctx, int slot)
{
	mutex_lock(&ctx->lock);
	ctx->slots &= ~BIT(slot);
	mutex_unlock(&ctx->lock);
}

/* Nothing is left behind when it fails: the result is written before the
 * buffer is bound or its descriptor installed.
 */
long acceldev_buffer_create(struct acceldev_ctx *ctx, void __user *uarg)
{
	struct acceldev_ioctl_create_buffer arg;
	struct acceldev_pages *pages;
	struct acceldev_buffer *b;
	struct file *file;
	long err;
	int fd;

	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	if (arg.size <= 0 || arg.size > ACCELDEV_BUFFER_MAX_SIZE ||
	    (arg.type != BUFFER_TYPE_CODE && arg.type != BUFFER_TYPE_DATA))
		return -EINVAL;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	b->ctx = ctx;
	b->type = arg.type;
	b->slot = -1;
	if (arg.type == BUFFER_TYPE_DATA) {
		void __user *result = (u8 __user *)arg.result +
				      offsetof(struct acceldev_ioctl_create_buffer_result, buffer_slot);

		err = b->slot = slot_take(ctx);
		if (err < 0)
			goto free_buffer;
		err = -EFAULT;
		if (put_user((u32)b->slot, (u32 __user *)result))
			goto free_slot;
	}
	err = -ENOMEM;
	pages = pages_alloc(ctx->dev, arg.size);
	if (!pages)
		goto free_slot;
	b->pt_dma = pages->pt_dma;
	b->memory = anon_inode_getfile("[acceldev-pages]", &pages_fops, pages, O_RDWR);
	if (IS_ERR(b->memory)) {
		err = PTR_ERR(b->memory);
		pages_free(pages);
		goto free_slot;
	}
	fd = get_unused_fd_flags(0);
	if (fd < 0) {
		err = fd;
		goto put_memory;
	}
	file = buffer_file(b, arg.size);
	if (IS_ERR(file)) {
		err = PTR_ERR(file);
		put_unused_fd(fd);
		goto put_memory;
	}
	kref_get(&ctx->ref);
	if (b->slot >= 0) {
		const u32 w[ACCELDEV_DEVICE_CMD_WORDS] = { ACCELDEV_DEVICE_CMD_TYPE_BIND_SLOT | ctx->id << 4, b->slot,
							   lower_32_bits(b->pt_dma), upper_32_bits(b->pt_dma) };

		acceldev_submit(ctx->dev, w);
	}
	fd_install(fd, file);
	return fd;

put_memory:
	fput(b->memory);
free_slot:
	if (b->slot >= 0)
		slot_put(ctx, b->slot);
free_buffer:
	kfree(b);
	return err;
}

static int acceldev_fs_init_fs_context(struct fs_context *fc)
{
	return init_pseudo(fc, ACCELDEV_FS_MAGIC) ? 0 : -ENOMEM;
}

static struct file_system_type acceldev_fs_type = {
	.name = "acceldev",
	.init_fs_context = acceldev_fs_init_fs_context,
	.kill_sb = kill_anon_super,
};

int acceldev_fs_init(void)
{
	acceldev_mnt = kern_mount(&acceldev_fs_type);
	return PTR_ERR_OR_ZERO(acceldev_mnt);
}

void acceldev_fs_exit(void)
{
	kern_unmount(acceldev_mnt);
}
