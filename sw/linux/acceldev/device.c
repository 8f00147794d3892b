// SPDX-License-Identifier: GPL-2.0
/* The Acceldev PCI device: probe and the start-up sequence, the command
 * queue (CMD_MANUAL_FEED with its free count), driver fences and the INTx
 * handler.
 */
#include <linux/dma-mapping.h>
#include <linux/idr.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/module.h>

#include "acceldev.h"

/* With this many free queue entries or fewer the driver keeps one of its
 * FENCEs queued: its FENCE_WAIT interrupt ends a wait for room even when the
 * queued commands raise none themselves.
 */
#define FENCE_RESERVE 32

static DEFINE_IDA(acceldev_devices);

static u32 rd(struct acceldev *dev, unsigned int reg) { return ioread32(dev->bar0 + reg); }
static void wr(struct acceldev *dev, unsigned int reg, u32 v) { iowrite32(v, dev->bar0 + reg); }

u8 *acceldev_config(struct acceldev *dev, unsigned int ctx)
{
	return (u8 *)dev->configs + ACCELDEV_CONTEXT_CONFIG_SIZE * ctx;
}

static bool fence_passed(struct acceldev *dev, u32 seq)
{
	return (s32)(rd(dev, ACCELDEV_CMD_FENCE_LAST) - seq) >= 0;
}

static void feed(struct acceldev *dev, const u32 w[ACCELDEV_DEVICE_CMD_WORDS])
{
	int i;

	for (i = 0; i < ACCELDEV_DEVICE_CMD_WORDS; ++i)
		wr(dev, ACCELDEV_CMD_MANUAL_FEED(i), w[i]);
}

/* A driver FENCE numbered after every earlier one; CMD_FENCE_WAIT always
 * holds the newest, so the newest raises FENCE_WAIT when it executes.
 */
static u32 feed_fence(struct acceldev *dev)
{
	const u32 seq = ++dev->fence_seq;
	const u32 w[ACCELDEV_DEVICE_CMD_WORDS] = { ACCELDEV_DEVICE_CMD_TYPE_FENCE, seq };

	wr(dev, ACCELDEV_CMD_FENCE_WAIT, seq);
	feed(dev, w);
	return seq;
}

/* With feed_lock held: returns once one command fits in the queue. */
static void make_room(struct acceldev *dev)
{
	u32 free = rd(dev, ACCELDEV_CMD_MANUAL_FREE);

	if (free > 0 && free <= FENCE_RESERVE && fence_passed(dev, dev->fence_seq)) {
		feed_fence(dev);
		--free;
	}
	if (free == 0)
		wait_event(dev->wq, rd(dev, ACCELDEV_CMD_MANUAL_FREE) > 0);
}

void acceldev_submit(struct acceldev *dev, const u32 w[ACCELDEV_DEVICE_CMD_WORDS])
{
	mutex_lock(&dev->feed_lock);
	make_room(dev);
	feed(dev, w);
	mutex_unlock(&dev->feed_lock);
}

/* A RUN, then a driver FENCE that tells when it has completed. */
void acceldev_submit_run(struct acceldev_ctx *ctx, const u32 w[ACCELDEV_DEVICE_CMD_WORDS])
{
	struct acceldev *dev = ctx->dev;

	mutex_lock(&dev->feed_lock);
	make_room(dev);
	feed(dev, w);
	make_room(dev);
	ctx->last_run_fence = feed_fence(dev);
	mutex_unlock(&dev->feed_lock);
}

/* Returns once every RUN submitted on the context so far has completed. */
void acceldev_wait_runs(struct acceldev_ctx *ctx)
{
	struct acceldev *dev = ctx->dev;
	u32 seq;

	mutex_lock(&dev->feed_lock);
	seq = ctx->last_run_fence;
	mutex_unlock(&dev->feed_lock);
	wait_event(dev->wq, fence_passed(dev, seq));
}

/* Every Acceldev interrupt wakes every waiter, which checks its own condition
 * (a driver fence, a context's fence counter or error, queue room).
 */
static irqreturn_t acceldev_irq(int irq, void *data)
{
	struct acceldev *dev = data;
	const u32 intr = rd(dev, ACCELDEV_INTR) & ACCELDEV_INTR_ALL;

	if (!intr)
		return IRQ_NONE;
	wr(dev, ACCELDEV_INTR, intr);
	if (intr & ACCELDEV_INTR_FEED_ERROR)
		dev_err_ratelimited(&dev->pdev->dev, "FEED_ERROR: a command was fed to a full queue\n");
	wake_up_all(&dev->wq);
	return IRQ_HANDLED;
}

/* The start-up sequence of the device's documentation. */
static void acceldev_start(struct acceldev *dev)
{
	wr(dev, ACCELDEV_INTR, 0xFFFFFFFFu);
	wr(dev, ACCELDEV_INTR_ENABLE, ACCELDEV_INTR_ALL);
	wr(dev, ACCELDEV_CONTEXTS_CONFIGS_LO, lower_32_bits(dev->configs_dma));
	wr(dev, ACCELDEV_CONTEXTS_CONFIGS_HI, upper_32_bits(dev->configs_dma));
	wr(dev, ACCELDEV_ENABLE, 1);
	wr(dev, ACCELDEV_CMD_FENCE_LAST, 0);
	wr(dev, ACCELDEV_CMD_FENCE_WAIT, 0);
	dev->fence_seq = 0;
}

static int acceldev_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct acceldev *dev;
	int err;

	dev = devm_kzalloc(&pdev->dev, sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->pdev = pdev;
	mutex_init(&dev->feed_lock);
	init_waitqueue_head(&dev->wq);
	ida_init(&dev->contexts);

	err = pcim_enable_device(pdev);
	if (err)
		return err;
	err = pcim_iomap_regions(pdev, BIT(0), "acceldev");
	if (err)
		return err;
	dev->bar0 = pcim_iomap_table(pdev)[0];
	pci_set_master(pdev);
	/* Page-table entries hold 40-bit addresses. */
	err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(40));
	if (err)
		return err;
	dev->configs = dmam_alloc_coherent(&pdev->dev, ACCELDEV_MAX_CONTEXTS * ACCELDEV_CONTEXT_CONFIG_SIZE,
					   &dev->configs_dma, GFP_KERNEL);
	if (!dev->configs)
		return -ENOMEM;

	wr(dev, ACCELDEV_ENABLE, 0);
	wr(dev, ACCELDEV_INTR_ENABLE, 0);
	err = devm_request_irq(&pdev->dev, pdev->irq, acceldev_irq, IRQF_SHARED, "acceldev", dev);
	if (err)
		return err;
	acceldev_start(dev);

	dev->index = ida_alloc(&acceldev_devices, GFP_KERNEL);
	if (dev->index < 0)
		return dev->index;
	snprintf(dev->name, sizeof(dev->name), "acceldev%d", dev->index);
	dev->misc.minor = MISC_DYNAMIC_MINOR;
	dev->misc.name = dev->name;
	dev->misc.fops = &acceldev_ctx_fops;
	dev->misc.parent = &pdev->dev;
	err = misc_register(&dev->misc);
	if (err) {
		ida_free(&acceldev_devices, dev->index);
		return err;
	}
	pci_set_drvdata(pdev, dev);
	dev_info(&pdev->dev, "%s: BAR0 %pR, irq %d, %d contexts\n", dev->name, &pdev->resource[0], pdev->irq,
		 ACCELDEV_MAX_CONTEXTS);
	return 0;
}

/* Runs only at module unload (no unbind through sysfs), when no file of the
 * driver is open: every file holds a reference to the module.
 */
static void acceldev_remove(struct pci_dev *pdev)
{
	struct acceldev *dev = pci_get_drvdata(pdev);

	misc_deregister(&dev->misc);
	wr(dev, ACCELDEV_ENABLE, 0);
	wr(dev, ACCELDEV_INTR_ENABLE, 0);
	ida_free(&acceldev_devices, dev->index);
	ida_destroy(&dev->contexts);
}

static const struct pci_device_id acceldev_ids[] = {
	{ PCI_DEVICE(AVP_PCI_VENDOR_ID, AVP_PCI_DEVICE_ID) },
	{}
};
MODULE_DEVICE_TABLE(pci, acceldev_ids);

static struct pci_driver acceldev_pci_driver = {
	.name = "acceldev",
	.id_table = acceldev_ids,
	.probe = acceldev_probe,
	.remove = acceldev_remove,
	.driver.suppress_bind_attrs = true,
};

static int __init acceldev_init(void)
{
	int err = acceldev_fs_init();

	if (err)
		return err;
	err = pci_register_driver(&acceldev_pci_driver);
	if (err)
		acceldev_fs_exit();
	return err;
}

static void __exit acceldev_exit(void)
{
	pci_unregister_driver(&acceldev_pci_driver);
	acceldev_fs_exit();
}

module_init(acceldev_init);
module_exit(acceldev_exit);
MODULE_DESCRIPTION("Acceldev: accel-vp's command-queue accelerator front end");
MODULE_LICENSE("GPL");
