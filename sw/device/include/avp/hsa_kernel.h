// HSA kernels in accel-vp code objects (docs/aql.md, "Code objects").
//
//   struct my_args { const int32_t* in; int32_t* out; uint32_t n; };
//   AVP_HSA_KERNEL(my_kernel, struct my_args, 1, 0, 0,
//                  AVP_HSA_ARG(struct my_args, in, "GlobalBuffer", "I32"),
//                  AVP_HSA_ARG(struct my_args, out, "GlobalBuffer", "I32"),
//                  AVP_HSA_ARG(struct my_args, n, "ByValue", "U32"))
//   {  /* args, wg_id[0..DIMS-1] */ }
//
// defines `void my_kernel(const struct my_args* args, uint64_t wg_x[, wg_y, wg_z])`
// and emits its 64-byte kernel descriptor `my_kernel.kd` (GFX6-GFX9 layout:
// max_flat_workgroup_size AVP_HSA_MAX_FLAT_WORKGROUP_SIZE, kernarg segment
// pointer in a0, work-group ids x..DIMS in a1.., the entry offset resolved by
// the linker) plus a metadata record that avp_add_code_object turns into the
// ACCELVP YAML note. Link with avp_add_code_object (cmake/AvpDevice.cmake).
#pragma once
#include <stddef.h>
#include <stdint.h>

#define AVP_HSA_MAX_ARGS 16

// Metadata records (section .avp.hsa_meta, not loaded; read at build time by
// sw/device/tools/make_code_object.py, which must match this layout).
struct avp_hsa_arg_meta {
  char name[32];
  char value_kind[32];  // ByValue or GlobalBuffer
  char value_type[16];  // Struct, I8, U8, I16, U16, F16, I32, U32, F32, I64, U64, F64
  uint32_t size, align, offset;
};
struct avp_hsa_kernel_meta {
  char name[64];
  uint32_t kernarg_size, kernarg_align, group_segment_fixed_size, private_segment_fixed_size;
  uint32_t dims, arg_count, max_flat_workgroup_size;
  uint32_t padding;  // keeps the record a multiple of 8 bytes (the section packs aligned(8) records)
  struct avp_hsa_arg_meta args[AVP_HSA_MAX_ARGS];
};

#define AVP_HSA_ARG(TYPE, FIELD, KIND, VALUE_TYPE) \
  { #FIELD, KIND, VALUE_TYPE, sizeof(((TYPE*)0)->FIELD), _Alignof(__typeof__(((TYPE*)0)->FIELD)), offsetof(TYPE, FIELD) }

#define AVP_HSA_IMPL_PARAMS_1 uint64_t wg_x
#define AVP_HSA_IMPL_PARAMS_2 uint64_t wg_x, uint64_t wg_y
#define AVP_HSA_IMPL_PARAMS_3 uint64_t wg_x, uint64_t wg_y, uint64_t wg_z
// compute_pgm_rsrc2 ENABLE_SGPR_WORKGROUP_ID_X.. for DIMS dimensions.
#define AVP_HSA_IMPL_RSRC2(DIMS) ((DIMS) >= 3 ? 0x380 : (DIMS) == 2 ? 0x180 : 0x80)
#define AVP_HSA_IMPL_KERNARG_PTR 0x8
// The descriptor's max_flat_workgroup_size (work-items); define it before
// including this header to change it for every kernel of a file.
#ifndef AVP_HSA_MAX_FLAT_WORKGROUP_SIZE
#define AVP_HSA_MAX_FLAT_WORKGROUP_SIZE 1024
#endif

// The descriptor is emitted with an asm statement in a never-called function
// so that the compiler supplies the sizes as immediates; the function itself
// is dropped by --gc-sections, the descriptor section is kept by code_object.ld.
#define AVP_HSA_KERNEL(NAME, ARGS_TYPE, DIMS, GROUP_SIZE, PRIVATE_SIZE, ...)                                       \
  _Static_assert((DIMS) >= 1 && (DIMS) <= 3, "DIMS is 1, 2 or 3");                                              \
  _Static_assert(sizeof((struct avp_hsa_arg_meta[]){__VA_ARGS__}) / sizeof(struct avp_hsa_arg_meta) <=          \
                     AVP_HSA_MAX_ARGS, "too many kernel arguments");                                             \
  void NAME(const ARGS_TYPE* args, AVP_HSA_IMPL_PARAMS_##DIMS) __attribute__((used, noinline, section(".text.kernel." #NAME))); \
  __attribute__((used)) static void avp_hsa_descriptor_##NAME(void) {                                            \
    __asm__ volatile(".pushsection .avp.kd." #NAME ",\"a\",@progbits\n"                                          \
                     ".p2align 6\n.globl " #NAME ".kd\n.type " #NAME ".kd, @object\n.size " #NAME ".kd, 64\n"  \
                     #NAME ".kd:\n"                                                                              \
                     ".word %0, %1, %2, 0\n"                                                                     \
                     ".quad " #NAME " - " #NAME ".kd\n"                                                          \
                     ".zero 24\n"                                                                                \
                     ".word 0, %3\n"                                                                             \
                     ".half %4\n"                                                                                \
                     ".zero 6\n"                                                                                 \
                     ".popsection"                                                                               \
                     :                                                                                           \
                     : "i"(GROUP_SIZE), "i"(PRIVATE_SIZE), "i"(AVP_HSA_MAX_FLAT_WORKGROUP_SIZE),                   \
                       "i"(AVP_HSA_IMPL_RSRC2(DIMS)),                                                            \
                       "i"(AVP_HSA_IMPL_KERNARG_PTR));                                                \
  }                                                                                                              \
  __attribute__((used, aligned(8), section(".avp.hsa_meta"))) static const struct avp_hsa_kernel_meta avp_hsa_meta_##NAME = { \
      #NAME, sizeof(ARGS_TYPE), _Alignof(ARGS_TYPE), GROUP_SIZE, PRIVATE_SIZE, DIMS,                              \
      sizeof((struct avp_hsa_arg_meta[]){__VA_ARGS__}) / sizeof(struct avp_hsa_arg_meta),                       \
      AVP_HSA_MAX_FLAT_WORKGROUP_SIZE, 0, {__VA_ARGS__}};                                                            \
  void NAME(const ARGS_TYPE* args, AVP_HSA_IMPL_PARAMS_##DIMS)
