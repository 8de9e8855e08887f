// The executable file: writing and reading it. Layout: the magic, a uint32 version, then
// one section per field of Executable: a four-letter tag, the uint64 length of its body,
// the CRC-32C of its body (uint32), the body. Integers are little-endian and fixed-width;
// strings, byte blobs and arrays carry a uint64 length.
//
// The tensor constants' bytes are not in the constants section but in a last section,
// DATA, so that the small sections are read first and the big one can stay where the
// file is mapped: its body is zero padding up to the first file offset that is a
// multiple of kConstantAlignment (the origin), then each tensor at its offset from the
// origin (multiples of the alignment, zero padding between), which the constant records
// with its length.
//
// The reader trusts nothing: a section's checksum is checked before its body is read (so
// that accidental damage is reported as such, and never reaches a driver), every length
// is checked against the bytes left in its section before anything is allocated (an array
// of n elements needs at least n times its smallest encoding), and every error names the
// byte and what was being read. The result then goes through validate_executable, which
// checks what the bytes refer to.
#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string_view>
#include <utility>

#include "runtime/crc32c.h"
#include "runtime/input_file.h"
#include "runtime/runtime_error.h"
#include "runtime/vm/executable.h"

namespace relaxc::runtime::vm {
namespace {

// Section tags, in file order.
constexpr std::array<char, 4> kFunctionsTag = {'F', 'U', 'N', 'C'};
constexpr std::array<char, 4> kConstantsTag = {'C', 'N', 'S', 'T'};
constexpr std::array<char, 4> kHostFuncsTag = {'H', 'O', 'S', 'T'};
constexpr std::array<char, 4> kBackendsTag = {'B', 'K', 'N', 'D'};
constexpr std::array<char, 4> kExportsTag = {'E', 'X', 'P', 'T'};
constexpr std::array<char, 4> kDataTag = {'D', 'A', 'T', 'A'};

// The smallest encodings, in bytes, of the elements of each array (what a length is
// checked against).
constexpr size_t kIntInstrBytes = 1 + 8;
constexpr size_t kArgBytes = 1 + 8;
constexpr size_t kLengthBytes = 8;  // a string, blob or array: its length alone
constexpr size_t kInstructionBytes = 1 + 8 + 8 + kLengthBytes + 8 + 8;
constexpr size_t kSourceRangeBytes = 8 + kLengthBytes;
// kind, name, parameters, registers, code, memory plan, sources, index
constexpr size_t kFunctionBytes = 1 + kLengthBytes + kLengthBytes + 8 + 3 * kLengthBytes + 8;
constexpr size_t kDTypeBytes = 4;
constexpr size_t kConstantBytes = 1 + kDTypeBytes + kLengthBytes + 8 + 8 + kLengthBytes + 8 + 8;
constexpr size_t kStoreBytes = 8 + kLengthBytes;
constexpr size_t kHostFuncBytes = 2 * kLengthBytes;
constexpr size_t kKernelDimBytes = 4 + kLengthBytes;
constexpr size_t kKernelParamBytes = kLengthBytes + kDTypeBytes + kLengthBytes;
constexpr size_t kWorkspaceBytes = 2 * kLengthBytes;
constexpr size_t kLaunchBytes = 8 + 2 * kLengthBytes + 3 * kLengthBytes;
constexpr size_t kKernelFuncBytes = kLengthBytes * 5 + 4;
constexpr size_t kKernelBinaryBytes = kLengthBytes + 1 + kLengthBytes + 12 + 4 + kLengthBytes + 4;
constexpr size_t kBackendBytes = 1 + 3 * kLengthBytes;

class Writer {
 public:
  void u8(uint8_t v) { out_.push_back(v); }
  void u16(uint16_t v) { fixed(v, 2); }
  void u32(uint32_t v) { fixed(v, 4); }
  void i32(int32_t v) { fixed(static_cast<uint32_t>(v), 4); }
  void u64(uint64_t v) { fixed(v, 8); }
  void i64(int64_t v) { fixed(static_cast<uint64_t>(v), 8); }
  void f64(double v) { fixed(std::bit_cast<uint64_t>(v), 8); }
  void tag(const std::array<char, 4>& t) {
    for (char c : t) u8(static_cast<uint8_t>(c));
  }
  // A section: its tag, the length and checksum of what `write_body` writes, the body.
  template <typename F>
  void section(const std::array<char, 4>& t, F&& write_body) {
    tag(t);
    const size_t length_at = out_.size();
    u64(0);
    u32(0);
    const size_t begin = out_.size();
    write_body();
    const std::span<const uint8_t> body = std::span(out_).subspan(begin);
    patch(length_at, body.size(), 8);
    patch(length_at + 8, crc32c(body), 4);
  }
  void bytes(std::span<const uint8_t> b) {
    u64(b.size());
    out_.insert(out_.end(), b.begin(), b.end());
  }
  void str(const std::string& s) {
    bytes(std::span(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
  }
  void dtype(DType t) {
    u8(static_cast<uint8_t>(t.code));
    u8(t.bits);
    u16(t.lanes);
  }
  void program(const IntProgram& p) {
    u64(p.code.size());
    for (const IntInstr& in : p.code) {
      u8(static_cast<uint8_t>(in.op));
      i64(in.operand);
    }
  }
  template <typename T, typename F>
  void array(const std::vector<T>& items, F&& write_one) {
    u64(items.size());
    for (const T& item : items) write_one(item);
  }
  // Zero bytes up to the next file offset that is a multiple of `alignment`.
  void align(uint64_t alignment) {
    out_.resize((out_.size() + alignment - 1) / alignment * alignment, 0);
  }
  // Zero bytes up to file offset `at`.
  void pad_to(size_t at) { out_.resize(at, 0); }
  void raw(std::span<const uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void reserve(size_t n) { out_.reserve(n); }
  size_t size() const { return out_.size(); }
  std::vector<uint8_t> take() { return std::move(out_); }

 private:
  void fixed(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void patch(size_t pos, uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out_[pos + i] = static_cast<uint8_t>(v >> (8 * i));
  }
  std::vector<uint8_t> out_;
};

class Reader {
 public:
  Reader(std::span<const uint8_t> bytes, Checksums checksums)
      : bytes_(bytes), checksums_(checksums) {}

  // What is being read, for messages; scopes nest and the innermost is reported.
  class Scope {
   public:
    Scope(Reader& r, std::string what) : r_(r) { r_.context_.push_back(std::move(what)); }
    ~Scope() { r_.context_.pop_back(); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    Reader& r_;
  };

  size_t pos() const { return pos_; }
  size_t left() const { return bytes_.size() - pos_; }

  uint8_t u8() { return static_cast<uint8_t>(fixed(1)); }
  uint16_t u16() { return static_cast<uint16_t>(fixed(2)); }
  uint32_t u32() { return static_cast<uint32_t>(fixed(4)); }
  int32_t i32() { return static_cast<int32_t>(static_cast<uint32_t>(fixed(4))); }
  uint64_t u64() { return fixed(8); }
  int64_t i64() { return static_cast<int64_t>(fixed(8)); }
  double f64() { return std::bit_cast<double>(fixed(8)); }

  // An array length: each element takes at least `min_bytes` of what is left.
  size_t count(size_t min_bytes) {
    const size_t at = pos_;
    const uint64_t n = u64();
    if (n > left() / min_bytes) {
      truncated(std::to_string(n) + " elements of at least " + std::to_string(min_bytes) +
                " bytes (length at byte " + std::to_string(at) + ") do not fit in the " +
                std::to_string(left()) + " bytes left");
    }
    return static_cast<size_t>(n);
  }
  std::span<const uint8_t> blob() {
    const size_t n = count(1);
    std::span<const uint8_t> b = bytes_.subspan(pos_, n);
    pos_ += n;
    return b;
  }
  // Everything left in the section being read.
  std::span<const uint8_t> rest() {
    std::span<const uint8_t> b = bytes_.subspan(pos_);
    pos_ = bytes_.size();
    return b;
  }
  std::string str() {
    std::span<const uint8_t> b = blob();
    return std::string(b.begin(), b.end());
  }
  DType dtype() {
    DType t;
    t.code = static_cast<DType::Code>(u8());
    t.bits = u8();
    t.lanes = u16();
    return t;
  }
  IntProgram program() {
    IntProgram p;
    p.code.resize(count(kIntInstrBytes));
    for (IntInstr& in : p.code) {
      in.op = static_cast<IntOp>(u8());
      in.operand = i64();
    }
    return p;
  }
  void tag(const std::array<char, 4>& t) {
    const size_t at = pos_;
    std::string found;
    for (size_t i = 0; i < t.size(); ++i) found += static_cast<char>(u8());
    if (found != std::string(t.begin(), t.end())) {
      runtime_error() << "executable: damaged at byte " << at << ": expected the section tag '"
                      << std::string(t.begin(), t.end()) << "' while reading " << context_.back();
    }
  }
  // A section written by Writer::section: its checksum is checked, then `read_body`
  // reads within its length and must read all of it.
  template <typename F>
  void section(const std::array<char, 4>& t, F&& read_body) {
    const std::string name(t.begin(), t.end());
    tag(t);
    const size_t length_at = pos_;
    const uint64_t length = u64();
    const uint32_t checksum = u32();
    if (length > left()) {
      truncated("section '" + name + "' of " + std::to_string(length) + " bytes (length at byte " +
                std::to_string(length_at) + ") does not fit in the " + std::to_string(left()) +
                " bytes left");
    }
    const size_t end = pos_ + static_cast<size_t>(length);
    if (checksums_ == Checksums::Verify) {
      const uint32_t actual = crc32c(bytes_.subspan(pos_, static_cast<size_t>(length)));
      if (actual != checksum) {
        runtime_error() << "executable: damaged: section '" << name << "' (bytes " << pos_ << " to "
                        << end << ") has checksum " << hex_word(actual) << ", the file says "
                        << hex_word(checksum);
      }
    }
    const std::span<const uint8_t> whole = bytes_;
    bytes_ = bytes_.first(end);
    read_body();
    if (pos_ != end) {
      runtime_error() << "executable: damaged: section '" << name << "' has " << end - pos_
                      << " unexpected bytes at its end, at byte " << pos_;
    }
    bytes_ = whole;
  }
  template <typename T, typename F>
  std::vector<T> array(size_t min_bytes, F&& read_one) {
    std::vector<T> items(count(min_bytes));
    for (size_t i = 0; i < items.size(); ++i) items[i] = read_one(i);
    return items;
  }

  [[noreturn]] void truncated(const std::string& detail) const {
    runtime_error() << "executable: truncated at byte " << bytes_.size() << " while reading "
                    << context_.back() << ": " << detail;
  }

 private:
  uint64_t fixed(size_t n) {
    if (left() < n) {
      truncated(std::to_string(n) + " bytes needed at byte " + std::to_string(pos_) + ", " +
                std::to_string(left()) + " left");
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= uint64_t{bytes_[pos_ + i]} << (8 * i);
    pos_ += n;
    return v;
  }

  std::span<const uint8_t> bytes_;  // up to the end of the section being read
  Checksums checksums_;
  size_t pos_ = 0;
  std::vector<std::string> context_ = {"the header"};
};

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// --- Functions ---

void write_instruction(Writer& w, const Instruction& in) {
  w.u8(static_cast<uint8_t>(in.opcode));
  w.i64(in.dst);
  w.i64(in.func);
  w.array(in.args, [&](const Arg& a) {
    w.u8(static_cast<uint8_t>(a.kind));
    w.i64(a.value);
  });
  w.i64(in.reg);
  w.i64(in.offset);
}

Instruction read_instruction(Reader& r) {
  Instruction in;
  in.opcode = static_cast<Opcode>(r.u8());
  in.dst = r.i64();
  in.func = r.i64();
  in.args = r.array<Arg>(kArgBytes, [&](size_t) {
    Arg a;
    a.kind = static_cast<Arg::Kind>(r.u8());
    a.value = r.i64();
    return a;
  });
  in.reg = r.i64();
  in.offset = r.i64();
  return in;
}

void write_function(Writer& w, const FunctionEntry& f) {
  w.u8(static_cast<uint8_t>(f.kind));
  w.str(f.name);
  w.array(f.param_names, [&](const std::string& s) { w.str(s); });
  w.i64(f.num_registers);
  w.array(f.code, [&](const Instruction& in) { write_instruction(w, in); });
  w.array(f.memory_plan, [&](const std::string& s) { w.str(s); });
  w.array(f.sources, [&](const SourceRange& range) {
    w.i64(range.first_instruction);
    w.str(range.location);
  });
  w.i64(f.index);
}

FunctionEntry read_function(Reader& r, size_t i) {
  FunctionEntry f;
  Reader::Scope scope(r, "function " + std::to_string(i));
  f.kind = static_cast<FunctionKind>(r.u8());
  {
    Reader::Scope s(r, "the name of function " + std::to_string(i));
    f.name = r.str();
  }
  const std::string name = "function " + quoted(f.name);
  {
    Reader::Scope s(r, "the parameter names of " + name);
    f.param_names = r.array<std::string>(kLengthBytes, [&](size_t) { return r.str(); });
  }
  f.num_registers = r.i64();
  {
    Reader::Scope s(r, "the code of " + name);
    f.code = r.array<Instruction>(kInstructionBytes, [&](size_t pc) {
      Reader::Scope s(r, "instruction " + std::to_string(pc) + " of " + name);
      return read_instruction(r);
    });
  }
  {
    Reader::Scope s(r, "the memory plan of " + name);
    f.memory_plan = r.array<std::string>(kLengthBytes, [&](size_t) { return r.str(); });
  }
  {
    Reader::Scope s(r, "the source ranges of " + name);
    f.sources = r.array<SourceRange>(kSourceRangeBytes, [&](size_t) {
      SourceRange range;
      range.first_instruction = r.i64();
      range.location = r.str();
      return range;
    });
  }
  f.index = r.i64();
  return f;
}

// --- Constants and host functions ---

uint64_t align_up(uint64_t n) {
  return (n + kConstantAlignment - 1) / kConstantAlignment * kConstantAlignment;
}

// Where each constant's bytes go in the data section, from its origin: consecutive
// multiples of the alignment (a constant without bytes takes none).
std::vector<uint64_t> data_layout(const std::vector<Constant>& constants, uint64_t* total) {
  std::vector<uint64_t> offsets;
  uint64_t at = 0;
  for (const Constant& c : constants) {
    at = align_up(at);
    offsets.push_back(at);
    at += c.bytes.size();
  }
  *total = at;
  return offsets;
}

void write_constant(Writer& w, const Constant& c, uint64_t data_offset) {
  w.u8(static_cast<uint8_t>(c.kind));
  w.dtype(c.dtype);
  w.array(c.shape, [&](int64_t d) { w.i64(d); });
  w.u64(data_offset);
  w.u64(c.bytes.size());
  w.str(c.str);
  w.i64(c.int_value);
  w.f64(c.float_value);
}

// Where a constant's bytes are in the data section, as the constants section says; they
// are resolved once the data section is read.
struct DataRef {
  uint64_t offset = 0;
  uint64_t length = 0;
  size_t at = 0;  // the file offset of the record, for messages
};

Constant read_constant(Reader& r, size_t i, DataRef* ref) {
  Reader::Scope scope(r, "constant " + std::to_string(i));
  Constant c;
  c.kind = static_cast<Constant::Kind>(r.u8());
  c.dtype = r.dtype();
  c.shape = r.array<int64_t>(8, [&](size_t) { return r.i64(); });
  ref->at = r.pos();
  ref->offset = r.u64();
  ref->length = r.u64();
  c.str = r.str();
  c.int_value = r.i64();
  c.float_value = r.f64();
  return c;
}

void write_data(Writer& w, const std::vector<Constant>& constants,
                const std::vector<uint64_t>& offsets) {
  w.align(kConstantAlignment);
  const size_t origin = w.size();
  for (size_t i = 0; i < constants.size(); ++i) {
    w.pad_to(origin + offsets[i]);
    w.raw(constants[i].bytes.span());
  }
}

// Gives each constant the bytes its DataRef names in the data section `body` (which
// starts at file offset `body_at`), viewing `owner`'s memory, after checking that they
// lie inside the section and at an aligned file offset.
void resolve_data(std::vector<Constant>& constants, const std::vector<DataRef>& refs,
                  std::span<const uint8_t> body, size_t body_at,
                  const std::shared_ptr<const void>& owner) {
  const uint64_t origin = align_up(body_at) - body_at;
  for (size_t i = 0; i < constants.size(); ++i) {
    const DataRef& ref = refs[i];
    if (ref.length == 0) continue;
    const uint64_t held = body.size() - std::min<uint64_t>(origin, body.size());
    if (ref.offset > held || ref.length > held - ref.offset) {
      runtime_error() << "executable: damaged: constant " << i << " (record at byte " << ref.at
                      << ") has " << ref.length << " bytes at offset " << ref.offset
                      << " of the data section, which holds " << held << " bytes";
    }
    const uint64_t file_offset = body_at + origin + ref.offset;
    if (file_offset % kConstantAlignment != 0) {
      runtime_error() << "executable: damaged: constant " << i << " (record at byte " << ref.at
                      << ") starts at byte " << file_offset << ", not a multiple of "
                      << kConstantAlignment;
    }
    constants[i].bytes = ConstantBytes(
        body.subspan(static_cast<size_t>(origin + ref.offset), static_cast<size_t>(ref.length)),
        owner);
  }
}

void write_host_func(Writer& w, const HostFunc& h) {
  w.str(h.name);
  w.array(h.stores, [&](const std::pair<int64_t, IntProgram>& s) {
    w.i64(s.first);
    w.program(s.second);
  });
}

HostFunc read_host_func(Reader& r, size_t i) {
  HostFunc h;
  {
    Reader::Scope s(r, "the name of host function " + std::to_string(i));
    h.name = r.str();
  }
  Reader::Scope s(r, "the stores of host function " + quoted(h.name));
  h.stores = r.array<std::pair<int64_t, IntProgram>>(kStoreBytes, [&](size_t) {
    int64_t slot = r.i64();
    return std::pair(slot, r.program());
  });
  return h;
}

// --- Back ends ---

void write_kernel_func(Writer& w, const KernelFunc& k) {
  w.str(k.name);
  w.array(k.params, [&](const KernelParam& p) {
    w.str(p.name);
    w.dtype(p.dtype);
    w.array(p.shape, [&](const KernelDim& d) {
      w.i32(d.defines_slot);
      w.program(d.extent);
    });
  });
  w.array(k.scalar_param_slots, [&](int32_t s) { w.i32(s); });
  w.i32(k.num_slots);
  w.array(k.workspaces, [&](const KernelWorkspace& ws) {
    w.str(ws.name);
    w.program(ws.bytes);
  });
  w.array(k.launches, [&](const KernelLaunchInfo& l) {
    w.i64(l.kernel);
    w.array(l.buffer_args, [&](int32_t b) { w.i32(b); });
    w.array(l.scalar_args, [&](const IntProgram& p) { w.program(p); });
    for (const IntProgram& g : l.grid) w.program(g);
  });
}

KernelFunc read_kernel_func(Reader& r, size_t i) {
  KernelFunc k;
  {
    Reader::Scope s(r, "the name of kernel function " + std::to_string(i));
    k.name = r.str();
  }
  Reader::Scope s(r, "kernel function " + quoted(k.name));
  k.params = r.array<KernelParam>(kKernelParamBytes, [&](size_t) {
    KernelParam p;
    p.name = r.str();
    p.dtype = r.dtype();
    p.shape = r.array<KernelDim>(kKernelDimBytes, [&](size_t) {
      KernelDim d;
      d.defines_slot = r.i32();
      d.extent = r.program();
      return d;
    });
    return p;
  });
  k.scalar_param_slots = r.array<int32_t>(4, [&](size_t) { return r.i32(); });
  k.num_slots = r.i32();
  k.workspaces = r.array<KernelWorkspace>(kWorkspaceBytes, [&](size_t) {
    KernelWorkspace ws;
    ws.name = r.str();
    ws.bytes = r.program();
    return ws;
  });
  k.launches = r.array<KernelLaunchInfo>(kLaunchBytes, [&](size_t) {
    KernelLaunchInfo l;
    l.kernel = r.i64();
    l.buffer_args = r.array<int32_t>(4, [&](size_t) { return r.i32(); });
    l.scalar_args = r.array<IntProgram>(kLengthBytes, [&](size_t) { return r.program(); });
    for (IntProgram& g : l.grid) g = r.program();
    return l;
  });
  return k;
}

void write_kernel_binary(Writer& w, const KernelBinary& k) {
  w.str(k.name);
  w.u8(static_cast<uint8_t>(k.format));
  w.bytes(k.code);
  for (uint32_t b : k.block_size) w.u32(b);
  w.i32(k.num_buffers);
  w.array(k.scalars, [&](ScalarType t) { w.u8(static_cast<uint8_t>(t)); });
  w.u32(k.shared_memory_bytes);
}

KernelBinary read_kernel_binary(Reader& r, size_t i) {
  KernelBinary k;
  {
    Reader::Scope s(r, "the name of kernel " + std::to_string(i));
    k.name = r.str();
  }
  Reader::Scope s(r, "kernel " + quoted(k.name));
  k.format = static_cast<KernelFormat>(r.u8());
  std::span<const uint8_t> code = r.blob();
  k.code.assign(code.begin(), code.end());
  for (uint32_t& b : k.block_size) b = r.u32();
  k.num_buffers = r.i32();
  k.scalars = r.array<ScalarType>(1, [&](size_t) { return static_cast<ScalarType>(r.u8()); });
  k.shared_memory_bytes = r.u32();
  return k;
}

void write_backend(Writer& w, const Backend& b) {
  w.u8(static_cast<uint8_t>(b.format));
  w.str(b.target);
  w.array(b.kernel_funcs, [&](const KernelFunc& k) { write_kernel_func(w, k); });
  w.array(b.kernels, [&](const KernelBinary& k) { write_kernel_binary(w, k); });
}

Backend read_backend(Reader& r, size_t i) {
  Reader::Scope scope(r, "backend " + std::to_string(i));
  Backend b;
  b.format = static_cast<KernelFormat>(r.u8());
  b.target = r.str();
  b.kernel_funcs =
      r.array<KernelFunc>(kKernelFuncBytes, [&](size_t k) { return read_kernel_func(r, k); });
  b.kernels =
      r.array<KernelBinary>(kKernelBinaryBytes, [&](size_t k) { return read_kernel_binary(r, k); });
  return b;
}

// --- The header ---

void read_header(Reader& r, std::span<const uint8_t> bytes) {
  constexpr size_t kNameBytes = 6;  // "RLXCVM"; the two bytes after it are the format
  if (bytes.size() < kNameBytes ||
      !std::equal(kExecutableMagic.begin(), kExecutableMagic.begin() + kNameBytes, bytes.begin())) {
    runtime_error() << "executable: not a relaxc executable (it does not start with \"RLXCVM\")";
  }
  std::array<uint8_t, kExecutableMagic.size()> magic{};
  for (uint8_t& b : magic) b = r.u8();
  if (magic != kExecutableMagic) {
    runtime_error() << "executable: format bytes " << int{magic[6]} << "." << int{magic[7]}
                    << ", this runtime reads " << int{kExecutableMagic[6]} << "."
                    << int{kExecutableMagic[7]};
  }
  const uint32_t version = r.u32();
  if (version != kExecutableVersion) {
    runtime_error() << "executable: version " << version << ", this runtime reads version "
                    << kExecutableVersion;
  }
}

}  // namespace

std::vector<uint8_t> save_executable(const Executable& exe) {
  Writer w;
  uint64_t data_bytes = 0;
  const std::vector<uint64_t> offsets = data_layout(exe.constants, &data_bytes);
  // The data section dominates a model's executable: one allocation for the whole file.
  w.reserve(static_cast<size_t>(data_bytes) + (size_t{1} << 16));
  for (uint8_t b : kExecutableMagic) w.u8(b);
  w.u32(kExecutableVersion);
  w.section(kFunctionsTag,
            [&] { w.array(exe.functions, [&](const FunctionEntry& f) { write_function(w, f); }); });
  w.section(kConstantsTag, [&] {
    w.u64(exe.constants.size());
    for (size_t i = 0; i < exe.constants.size(); ++i) {
      write_constant(w, exe.constants[i], offsets[i]);
    }
  });
  w.section(kHostFuncsTag,
            [&] { w.array(exe.host_funcs, [&](const HostFunc& h) { write_host_func(w, h); }); });
  w.section(kBackendsTag,
            [&] { w.array(exe.backends, [&](const Backend& b) { write_backend(w, b); }); });
  w.section(kExportsTag, [&] { w.array(exe.exports, [&](int64_t e) { w.i64(e); }); });
  w.section(kDataTag, [&] { write_data(w, exe.constants, offsets); });
  return w.take();
}

Executable load_executable(std::span<const uint8_t> bytes, Checksums checksums) {
  return load_executable(bytes, nullptr, checksums);
}

Executable load_executable(std::span<const uint8_t> bytes, std::shared_ptr<const void> owner,
                           Checksums checksums) {
  Reader r(bytes, checksums);
  read_header(r, bytes);
  Executable exe;
  std::vector<DataRef> refs;  // by constant
  {
    Reader::Scope s(r, "the functions");
    r.section(kFunctionsTag, [&] {
      exe.functions =
          r.array<FunctionEntry>(kFunctionBytes, [&](size_t i) { return read_function(r, i); });
    });
  }
  {
    Reader::Scope s(r, "the constants");
    r.section(kConstantsTag, [&] {
      refs.resize(r.count(kConstantBytes));
      exe.constants = std::vector<Constant>(refs.size());
      for (size_t i = 0; i < refs.size(); ++i) exe.constants[i] = read_constant(r, i, &refs[i]);
    });
  }
  {
    Reader::Scope s(r, "the host functions");
    r.section(kHostFuncsTag, [&] {
      exe.host_funcs =
          r.array<HostFunc>(kHostFuncBytes, [&](size_t i) { return read_host_func(r, i); });
    });
  }
  {
    Reader::Scope s(r, "the backends");
    r.section(kBackendsTag, [&] {
      exe.backends = r.array<Backend>(kBackendBytes, [&](size_t i) { return read_backend(r, i); });
    });
  }
  {
    Reader::Scope s(r, "the exports");
    r.section(kExportsTag,
              [&] { exe.exports = r.array<int64_t>(8, [&](size_t) { return r.i64(); }); });
  }
  {
    Reader::Scope s(r, "the constants' data");
    r.section(kDataTag, [&] {
      const size_t body_at = r.pos();
      std::span<const uint8_t> body = r.rest();
      if (owner == nullptr) {
        // Bytes without an owner may go away after the call: one copy, shared by the views.
        auto copy = std::make_shared<const std::vector<uint8_t>>(body.begin(), body.end());
        body = *copy;
        owner = std::move(copy);
      }
      resolve_data(exe.constants, refs, body, body_at, owner);
    });
  }
  if (r.left() != 0) {
    runtime_error() << "executable: " << r.left() << " unexpected bytes after the end, at byte "
                    << r.pos();
  }
  validate_executable(exe);
  return exe;
}

void save_executable_file(const Executable& exe, const std::string& path) {
  const std::vector<uint8_t> bytes = save_executable(exe);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    runtime_error() << "executable file '" << path
                    << "': cannot open for writing: " << std::strerror(errno);
  }
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) runtime_error() << "executable file '" << path << "': cannot write it";
}

Executable load_executable_from(std::shared_ptr<const InputBytes> file, const std::string& name) {
  try {
    const std::span<const uint8_t> bytes = file->bytes();
    return load_executable(bytes, std::move(file));
  } catch (const RuntimeError& e) {
    // "executable: truncated ..." becomes "executable file 'm.rxe': truncated ...".
    std::string message = e.what();
    constexpr std::string_view kPrefix = "executable: ";
    if (message.starts_with(kPrefix)) message.erase(0, kPrefix.size());
    runtime_error() << "executable file '" << name << "': " << message;
  }
}

Executable load_executable_file(const std::string& path) {
  return load_executable_from(map_input_file(path, kMaxDataFileBytes),
                              path == "-" ? kStdinName : path);
}

}  // namespace relaxc::runtime::vm
