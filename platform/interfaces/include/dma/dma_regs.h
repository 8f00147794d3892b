/* DMA controller register layout (platform.md section 4), shared by the model,
 * host software, device code and tests. One register set per requesting unit
 * at the same addresses; the unit of the access selects the set. */
#ifndef AVP_DMA_REGS_H
#define AVP_DMA_REGS_H

#define AVP_DMA_BASE 0x20002000u
#define AVP_DMA_SIZE 0x100u

#define AVP_DMACTRL 0x00           /* bit 0 START (reads 0); bits 5:4 dims 1..3; bits 7:6 stride mode */
#define AVP_DMASTARTSEQ 0x08       /* read: id of the last transfer this unit started */
#define AVP_DMADONESEQ 0x10        /* read: highest id done with all earlier ones; write N: wait until <= N done */
#define AVP_DMASRCADDR 0x18
#define AVP_DMADSTADDR 0x20
#define AVP_DMAXFERSIZE0 0x28      /* bytes per row */
#define AVP_DMAXFERSIZE1 0x30      /* rows */
#define AVP_DMAXFERSIZE2 0x38      /* planes */
#define AVP_DMAXFERSRCSTRIDE0 0x40 /* source row pitch (used when the stride mode has 0x80) */
#define AVP_DMAXFERSRCSTRIDE1 0x48 /* source plane pitch */
#define AVP_DMAXFERDSTSTRIDE0 0x50 /* destination row pitch (stride mode 0x40) */
#define AVP_DMAXFERDSTSTRIDE1 0x58 /* destination plane pitch */
#define AVP_DMASTATUS 0x60         /* accel-vp: bit 0 error, bits 63:32 id of the failed transfer; write 1 clears */

#define AVP_DMACTRL_START 0x1u
#define AVP_DMACTRL_DIMS(n) ((unsigned)(n) << 4)
#define AVP_DMACTRL_DST_STRIDE 0x40u
#define AVP_DMACTRL_SRC_STRIDE 0x80u

#endif
