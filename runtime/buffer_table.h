// A device's live buffers: the map from DeviceBuffer ids to the device's own entries,
// with the checks (and messages) every device makes when a buffer is used, released or
// passed to a kernel. Not thread-safe: the device's lock guards it.
#pragma once
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "runtime/device.h"

namespace relaxc::runtime {

// "buffer #3", a buffer in messages.
inline std::string buffer_name(DeviceBuffer buffer) {
  return "buffer #" + std::to_string(buffer.id);
}

// "kernel 'k': buffer argument 2 (buffer #3)", the start of a message about a buffer that
// a launch passes.
inline std::string buffer_argument_text(std::string_view kernel, size_t index,
                                        DeviceBuffer buffer) {
  return "kernel '" + std::string(kernel) + "': buffer argument " + std::to_string(index) + " (" +
         buffer_name(buffer) + ")";
}

// An entry knows its size in bytes, for the range checks.
template <typename Entry>
concept BufferTableEntry = requires(const Entry& entry) {
  { entry.bytes } -> std::convertible_to<size_t>;
};

template <BufferTableEntry Entry>
class BufferTable {
 public:
  using Map = std::unordered_map<uint64_t, Entry>;

  // Records a new buffer of `entry.bytes` bytes. Ids start at 1 and are never reused, so
  // a released buffer's id stays an error.
  DeviceBuffer add(Entry entry) {
    DeviceBuffer buffer{next_id_++, entry.bytes};
    entries_.emplace(buffer.id, std::move(entry));
    return buffer;
  }

  // An entry and a position in its allocation.
  struct Located {
    Entry& entry;
    size_t offset;  // from the start of the allocation
  };

  // The entry of the live buffer `buffer`, with [offset, offset + bytes) of the buffer's
  // range checked to lie inside it; the offset returned counts from the start of the
  // allocation. RuntimeError starting with `operation` ("upload: ...") otherwise.
  Located lookup(DeviceBuffer buffer, std::string_view operation, size_t offset, size_t bytes) {
    Entry& entry = find(buffer, [&](std::string_view problem) {
      runtime_error() << operation << ": " << buffer_name(buffer) << problem;
    });
    size_t size = buffer.bytes;
    if (offset > size || bytes > size - offset) {
      runtime_error() << operation << ": the range [" << offset << ", " << offset << " + " << bytes
                      << ") is outside " << buffer_name(buffer) << " of " << size << " bytes";
    }
    return {entry, buffer.offset + offset};
  }

  // The entry of `buffer`, buffer argument `index` of a launch of `kernel`, and the
  // offset of the buffer's range in it. RuntimeError naming the kernel and the argument
  // when the buffer is not live.
  Located argument(std::string_view kernel, size_t index, DeviceBuffer buffer) {
    Entry& entry = find(buffer, [&](std::string_view problem) {
      runtime_error() << buffer_argument_text(kernel, index, buffer) << problem;
    });
    return {entry, buffer.offset};
  }

  // Takes `buffer` out of the table (Device::release), its entry now the caller's.
  // RuntimeError when it is not live or is a range of an allocation, not all of it.
  Entry remove(DeviceBuffer buffer) {
    auto it = entries_.find(buffer.id);
    if (it == entries_.end()) {
      runtime_error() << "release: " << buffer_name(buffer)
                      << " was already released or never allocated";
    }
    if (buffer.offset != 0 || buffer.bytes != it->second.bytes) {
      runtime_error() << "release: " << buffer_name(buffer) << " is given as the range ["
                      << buffer.offset << ", " << buffer.offset << " + " << buffer.bytes
                      << ") of its " << it->second.bytes
                      << " bytes; a device releases whole allocations";
    }
    Entry entry = std::move(it->second);
    entries_.erase(it);
    return entry;
  }

  // The live buffers, by id, in no particular order.
  const Map& entries() const { return entries_; }

 private:
  // The live entry of `buffer`, whose range must lie inside it; else `fail` is called
  // with the rest of the message (" was released ...").
  template <typename Fail>
  Entry& find(DeviceBuffer buffer, Fail fail) {
    auto it = entries_.find(buffer.id);
    if (it == entries_.end()) fail(" was released or never allocated");
    size_t size = it->second.bytes;
    if (buffer.offset > size || buffer.bytes > size - buffer.offset) {
      fail(" is given as the range [" + std::to_string(buffer.offset) + ", " +
           std::to_string(buffer.offset) + " + " + std::to_string(buffer.bytes) +
           ") of an allocation of " + std::to_string(size) + " bytes");
    }
    return it->second;
  }

  Map entries_;
  uint64_t next_id_ = 1;
};

}  // namespace relaxc::runtime
