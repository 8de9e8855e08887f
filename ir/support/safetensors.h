// The safetensors format, the weights side file of a text module (docs/text_format.md):
// an 8-byte little-endian header length, a JSON header that maps each tensor's name to
// {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]} (offsets into the data
// that follows the header; an optional "__metadata__" object of strings), then the data.
// Only bytes in, bytes out: the caller reads and writes the file.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ir/support/host_tensor.h"

namespace relaxc {

struct NamedTensor {
  std::string name;
  HostTensor tensor;
};

// The file's bytes: the header padded with spaces so that the data starts at a multiple
// of 8 bytes, the tensors' data in the order given. A UserError naming `file` and the
// tensor when its data type has no safetensors name (vectors, int4, handles) or its data
// does not match its shape.
std::vector<uint8_t> write_safetensors(const std::vector<NamedTensor>& tensors,
                                       const std::string& file);

// The tensors of a safetensors file, in the header's order. Every field is
// checked before it is used; a damaged file is a UserError naming `file` and the tensor
// ("w.safetensors: tensor 'b': data_offsets [0, 24] hold 24 bytes; a float32 tensor of
// shape [2, 2] has 16"). Never reads outside `bytes`, never allocates more than they
// justify.
std::vector<NamedTensor> read_safetensors(std::span<const uint8_t> bytes, const std::string& file);

}  // namespace relaxc
