// The YAML metadata of a code object (the ACCELVP note): the seed's AMDHSA
// Code Object Metadata schema, version 1 (docs/aql.md, "Code objects").
#pragma once
#include <string>
#include <vector>

#include "code_object.h"

namespace avp {

// Kernels with their names, descriptor symbols, segment sizes and arguments
// (kernel_object unset). Throws CodeObjectLoadError (kBadMetadata,
// kBadArguments, kDuplicateKernel).
std::vector<KernelInfo> parse_code_object_metadata(const std::string& yaml);

}  // namespace avp
