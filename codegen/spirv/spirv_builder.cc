// SpirvBuilder: word encoding, the type and constant caches, and module assembly.
#include "codegen/spirv/spirv_builder.h"

#include <bit>

#include "ir/support/diagnostics.h"

namespace relaxc::codegen {
namespace {

// IEEE binary16 bits of `value`, rounded to nearest even (overflow gives infinity).
uint16_t half_bits(float value) {
  uint32_t f = std::bit_cast<uint32_t>(value);
  uint32_t sign = (f >> 16) & 0x8000u;
  int32_t exponent = static_cast<int32_t>((f >> 23) & 0xffu);
  uint32_t mantissa = f & 0x7fffffu;
  if (exponent == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u : 0u));
  int32_t half_exponent = exponent - 127 + 15;
  if (half_exponent >= 0x1f) return static_cast<uint16_t>(sign | 0x7c00u);
  if (half_exponent <= 0) {
    // Subnormal or zero: shift the mantissa with its implicit bit into place.
    if (half_exponent < -10) return static_cast<uint16_t>(sign);
    mantissa |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - half_exponent);
    uint32_t half_mantissa = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half_mantissa & 1u))) ++half_mantissa;
    return static_cast<uint16_t>(sign | half_mantissa);
  }
  uint32_t bits = sign | (static_cast<uint32_t>(half_exponent) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fffu;
  // A carry out of the mantissa correctly bumps the exponent (up to infinity).
  if (rest > 0x1000u || (rest == 0x1000u && (bits & 1u))) ++bits;
  return static_cast<uint16_t>(bits);
}

}  // namespace

SpirvBuilder::SpirvBuilder(uint32_t spirv_version) : spirv_version_(spirv_version) {}

void SpirvBuilder::append(std::vector<uint32_t>& section, spv::Op op,
                          const std::vector<uint32_t>& operands) {
  uint32_t word_count = static_cast<uint32_t>(operands.size() + 1);
  RELAXC_ICHECK(word_count <= 0xffffu) << "SPIR-V instruction too long";
  section.push_back((word_count << spv::WordCountShift) | static_cast<uint32_t>(op));
  section.insert(section.end(), operands.begin(), operands.end());
}

std::vector<uint32_t> SpirvBuilder::string_words(const std::string& text) {
  // UTF-8 bytes, nul-terminated, little-endian within each word, padded with zeros.
  std::vector<uint32_t> words(text.size() / 4 + 1, 0);
  for (size_t i = 0; i < text.size(); ++i) {
    words[i / 4] |= static_cast<uint32_t>(static_cast<unsigned char>(text[i])) << (8 * (i % 4));
  }
  return words;
}

void SpirvBuilder::capability(spv::Capability capability) {
  if (!capability_set_.insert(capability).second) return;
  append(capabilities_, spv::OpCapability, {static_cast<uint32_t>(capability)});
}

void SpirvBuilder::extension(const std::string& name) {
  if (!extension_set_.insert(name).second) return;
  append(extensions_, spv::OpExtension, string_words(name));
}

SpirvId SpirvBuilder::glsl_std_450() {
  if (glsl_std_450_ == 0) {
    glsl_std_450_ = fresh_id();
    std::vector<uint32_t> operands = {glsl_std_450_};
    for (uint32_t w : string_words("GLSL.std.450")) operands.push_back(w);
    append(imports_, spv::OpExtInstImport, operands);
  }
  return glsl_std_450_;
}

void SpirvBuilder::name(SpirvId id, const std::string& text) {
  std::vector<uint32_t> operands = {id};
  for (uint32_t w : string_words(text)) operands.push_back(w);
  append(debug_names_, spv::OpName, operands);
}

void SpirvBuilder::decorate(SpirvId id, spv::Decoration decoration,
                            std::vector<uint32_t> literals) {
  std::vector<uint32_t> operands = {id, static_cast<uint32_t>(decoration)};
  operands.insert(operands.end(), literals.begin(), literals.end());
  append(annotations_, spv::OpDecorate, operands);
}

void SpirvBuilder::member_decorate(SpirvId struct_type, uint32_t member, spv::Decoration decoration,
                                   std::vector<uint32_t> literals) {
  std::vector<uint32_t> operands = {struct_type, member, static_cast<uint32_t>(decoration)};
  operands.insert(operands.end(), literals.begin(), literals.end());
  append(annotations_, spv::OpMemberDecorate, operands);
}

SpirvId SpirvBuilder::cached_type(const std::string& key, spv::Op op,
                                  const std::vector<uint32_t>& operands) {
  auto it = types_.find(key);
  if (it != types_.end()) return it->second;
  SpirvId id = fresh_id();
  std::vector<uint32_t> with_result = {id};
  with_result.insert(with_result.end(), operands.begin(), operands.end());
  append(types_and_globals_, op, with_result);
  types_.emplace(key, id);
  return id;
}

SpirvId SpirvBuilder::void_type() { return cached_type("void", spv::OpTypeVoid, {}); }
SpirvId SpirvBuilder::bool_type() { return cached_type("bool", spv::OpTypeBool, {}); }

SpirvId SpirvBuilder::int_type(int bits, bool is_signed) {
  RELAXC_ICHECK(bits == 8 || bits == 16 || bits == 32 || bits == 64)
      << "no SPIR-V integer type of " << bits << " bits";
  if (bits == 8) capability(spv::CapabilityInt8);
  if (bits == 16) capability(spv::CapabilityInt16);
  if (bits == 64) capability(spv::CapabilityInt64);
  return cached_type((is_signed ? "i" : "u") + std::to_string(bits), spv::OpTypeInt,
                     {static_cast<uint32_t>(bits), is_signed ? 1u : 0u});
}

SpirvId SpirvBuilder::float_type(int bits) {
  RELAXC_ICHECK(bits == 16 || bits == 32 || bits == 64)
      << "no SPIR-V float type of " << bits << " bits";
  if (bits == 16) capability(spv::CapabilityFloat16);
  if (bits == 64) capability(spv::CapabilityFloat64);
  return cached_type("f" + std::to_string(bits), spv::OpTypeFloat, {static_cast<uint32_t>(bits)});
}

SpirvId SpirvBuilder::vector_type(SpirvId component, int lanes) {
  RELAXC_ICHECK(lanes >= 2 && lanes <= 4) << "no SPIR-V vector of " << lanes << " lanes";
  return cached_type("v" + std::to_string(component) + "x" + std::to_string(lanes),
                     spv::OpTypeVector, {component, static_cast<uint32_t>(lanes)});
}

SpirvId SpirvBuilder::type_of(DataType dtype) {
  SpirvId scalar = 0;
  if (dtype.is_bool()) {
    scalar = bool_type();
  } else if (dtype.is_int() || dtype.is_uint()) {
    scalar = int_type(dtype.bits(), dtype.is_int());
  } else if (dtype.is_float() && !dtype.is_bfloat()) {
    scalar = float_type(dtype.bits());
  } else {
    RELAXC_UNREACHABLE() << "no SPIR-V type for dtype " << dtype.str();
  }
  return dtype.lanes() == 1 ? scalar : vector_type(scalar, dtype.lanes());
}

SpirvId SpirvBuilder::pointer_type(spv::StorageClass storage, SpirvId pointee) {
  return cached_type(
      "p" + std::to_string(static_cast<int>(storage)) + "_" + std::to_string(pointee),
      spv::OpTypePointer, {static_cast<uint32_t>(storage), pointee});
}

SpirvId SpirvBuilder::runtime_array_type(SpirvId element, uint32_t stride) {
  std::string key = "ra" + std::to_string(element) + "_" + std::to_string(stride);
  bool is_new = types_.find(key) == types_.end();
  SpirvId id = cached_type(key, spv::OpTypeRuntimeArray, {element});
  if (is_new) decorate(id, spv::DecorationArrayStride, {stride});
  return id;
}

SpirvId SpirvBuilder::array_type(SpirvId element, uint32_t length) {
  SpirvId length_id = uint32_constant(length);
  return cached_type("a" + std::to_string(element) + "_" + std::to_string(length), spv::OpTypeArray,
                     {element, length_id});
}

SpirvId SpirvBuilder::block_struct_type(const std::vector<SpirvId>& members,
                                        const std::vector<uint32_t>& offsets) {
  RELAXC_ICHECK(members.size() == offsets.size()) << "a struct member without its offset";
  SpirvId id = fresh_id();
  std::vector<uint32_t> operands = {id};
  operands.insert(operands.end(), members.begin(), members.end());
  append(types_and_globals_, spv::OpTypeStruct, operands);
  decorate(id, spv::DecorationBlock);
  for (size_t i = 0; i < members.size(); ++i) {
    member_decorate(id, static_cast<uint32_t>(i), spv::DecorationOffset, {offsets[i]});
  }
  return id;
}

SpirvId SpirvBuilder::function_type(SpirvId return_type, const std::vector<SpirvId>& params) {
  std::string key = "fn" + std::to_string(return_type);
  std::vector<uint32_t> operands = {return_type};
  for (SpirvId p : params) {
    key += "_" + std::to_string(p);
    operands.push_back(p);
  }
  return cached_type(key, spv::OpTypeFunction, operands);
}

SpirvId SpirvBuilder::int_constant(DataType dtype, int64_t value) {
  RELAXC_ICHECK(dtype.is_integer() && !dtype.is_bool() && dtype.lanes() == 1)
      << "int_constant of dtype " << dtype.str();
  SpirvId type = type_of(dtype);
  uint64_t bits = static_cast<uint64_t>(value);
  std::vector<uint32_t> literal;
  if (dtype.bits() == 64) {
    literal = {static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)};
  } else {
    // Narrow literals are sign-extended for signed types and zero-extended otherwise.
    uint64_t mask = (uint64_t{1} << dtype.bits()) - 1;
    uint64_t narrow = bits & mask;
    if (dtype.is_int() && (narrow >> (dtype.bits() - 1)) != 0) narrow |= ~mask;
    literal = {static_cast<uint32_t>(narrow)};
  }
  std::string key = "c" + std::to_string(type);
  for (uint32_t w : literal) key += "_" + std::to_string(w);
  auto it = constants_.find(key);
  if (it != constants_.end()) return it->second;
  SpirvId id = fresh_id();
  std::vector<uint32_t> operands = {type, id};
  operands.insert(operands.end(), literal.begin(), literal.end());
  append(types_and_globals_, spv::OpConstant, operands);
  constants_.emplace(key, id);
  return id;
}

SpirvId SpirvBuilder::float_constant(DataType dtype, double value) {
  RELAXC_ICHECK(dtype.is_float() && dtype.lanes() == 1) << "float_constant of " << dtype.str();
  SpirvId type = type_of(dtype);
  std::vector<uint32_t> literal;
  if (dtype.bits() == 64) {
    uint64_t bits = std::bit_cast<uint64_t>(value);
    literal = {static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)};
  } else if (dtype.bits() == 32) {
    literal = {std::bit_cast<uint32_t>(static_cast<float>(value))};
  } else {
    literal = {half_bits(static_cast<float>(value))};
  }
  std::string key = "c" + std::to_string(type);
  for (uint32_t w : literal) key += "_" + std::to_string(w);
  auto it = constants_.find(key);
  if (it != constants_.end()) return it->second;
  SpirvId id = fresh_id();
  std::vector<uint32_t> operands = {type, id};
  operands.insert(operands.end(), literal.begin(), literal.end());
  append(types_and_globals_, spv::OpConstant, operands);
  constants_.emplace(key, id);
  return id;
}

SpirvId SpirvBuilder::bool_constant(bool value) {
  std::string key = value ? "true" : "false";
  auto it = constants_.find(key);
  if (it != constants_.end()) return it->second;
  SpirvId id = fresh_id();
  append(types_and_globals_, value ? spv::OpConstantTrue : spv::OpConstantFalse, {bool_type(), id});
  constants_.emplace(key, id);
  return id;
}

SpirvId SpirvBuilder::constant(DataType dtype, double value) {
  DataType scalar_dtype = dtype.element_of();
  SpirvId scalar = scalar_dtype.is_bool() ? bool_constant(value != 0.0)
                   : scalar_dtype.is_float()
                       ? float_constant(scalar_dtype, value)
                       : int_constant(scalar_dtype, static_cast<int64_t>(value));
  if (dtype.lanes() == 1) return scalar;
  SpirvId type = type_of(dtype);
  std::string key = "cc" + std::to_string(type) + "_" + std::to_string(scalar);
  auto it = constants_.find(key);
  if (it != constants_.end()) return it->second;
  SpirvId id = fresh_id();
  std::vector<uint32_t> operands = {type, id};
  operands.insert(operands.end(), static_cast<size_t>(dtype.lanes()), scalar);
  append(types_and_globals_, spv::OpConstantComposite, operands);
  constants_.emplace(key, id);
  return id;
}

SpirvId SpirvBuilder::global_variable(SpirvId pointer_type, spv::StorageClass storage) {
  SpirvId id = fresh_id();
  append(types_and_globals_, spv::OpVariable, {pointer_type, id, static_cast<uint32_t>(storage)});
  globals_.emplace_back(id, storage);
  return id;
}

SpirvId SpirvBuilder::function_variable(SpirvId pointer_type) {
  RELAXC_ICHECK(!function_header_.empty()) << "a Function variable outside a function";
  SpirvId id = fresh_id();
  append(function_vars_, spv::OpVariable,
         {pointer_type, id, static_cast<uint32_t>(spv::StorageClassFunction)});
  return id;
}

void SpirvBuilder::entry_point(spv::ExecutionModel model, SpirvId function, const std::string& name,
                               const std::vector<SpirvId>& interface) {
  std::vector<uint32_t> operands = {static_cast<uint32_t>(model), function};
  for (uint32_t w : string_words(name)) operands.push_back(w);
  operands.insert(operands.end(), interface.begin(), interface.end());
  append(entry_points_, spv::OpEntryPoint, operands);
}

void SpirvBuilder::execution_mode(SpirvId function, spv::ExecutionMode mode,
                                  std::vector<uint32_t> literals) {
  std::vector<uint32_t> operands = {function, static_cast<uint32_t>(mode)};
  operands.insert(operands.end(), literals.begin(), literals.end());
  append(execution_modes_, spv::OpExecutionMode, operands);
}

SpirvId SpirvBuilder::begin_function(SpirvId return_type, SpirvId function_type) {
  RELAXC_ICHECK(function_header_.empty()) << "one function per module";
  SpirvId id = fresh_id();
  append(function_header_, spv::OpFunction,
         {return_type, id, static_cast<uint32_t>(spv::FunctionControlMaskNone), function_type});
  SpirvId entry = new_label();
  append(function_header_, spv::OpLabel, {entry});
  current_block_ = entry;
  return id;
}

void SpirvBuilder::end_function() {
  RELAXC_ICHECK(current_block_ == 0) << "the last block of the function is not terminated";
  append(function_body_, spv::OpFunctionEnd, {});
}

SpirvId SpirvBuilder::value(spv::Op op, SpirvId result_type,
                            const std::vector<uint32_t>& operands) {
  SpirvId id = fresh_id();
  value_with_id(op, result_type, id, operands);
  return id;
}

void SpirvBuilder::value_with_id(spv::Op op, SpirvId result_type, SpirvId result,
                                 const std::vector<uint32_t>& operands) {
  RELAXC_ICHECK(current_block_ != 0) << "an instruction outside a block";
  std::vector<uint32_t> all = {result_type, result};
  all.insert(all.end(), operands.begin(), operands.end());
  append(function_body_, op, all);
}

void SpirvBuilder::instruction(spv::Op op, const std::vector<uint32_t>& operands) {
  RELAXC_ICHECK(current_block_ != 0) << "an instruction outside a block";
  append(function_body_, op, operands);
}

SpirvId SpirvBuilder::glsl(GLSLstd450 op, SpirvId result_type,
                           const std::vector<SpirvId>& operands) {
  std::vector<uint32_t> all = {glsl_std_450(), static_cast<uint32_t>(op)};
  all.insert(all.end(), operands.begin(), operands.end());
  return value(spv::OpExtInst, result_type, all);
}

void SpirvBuilder::start_block(SpirvId label) {
  RELAXC_ICHECK(current_block_ == 0) << "block " << current_block_ << " is not terminated";
  append(function_body_, spv::OpLabel, {label});
  current_block_ = label;
}

void SpirvBuilder::branch(SpirvId target) {
  instruction(spv::OpBranch, {target});
  current_block_ = 0;
}

void SpirvBuilder::branch_conditional(SpirvId condition, SpirvId true_label, SpirvId false_label) {
  instruction(spv::OpBranchConditional, {condition, true_label, false_label});
  current_block_ = 0;
}

void SpirvBuilder::return_void() {
  instruction(spv::OpReturn, {});
  current_block_ = 0;
}

void SpirvBuilder::loop_merge(SpirvId merge, SpirvId continue_target,
                              spv::LoopControlMask control) {
  instruction(spv::OpLoopMerge, {merge, continue_target, static_cast<uint32_t>(control)});
}

void SpirvBuilder::selection_merge(SpirvId merge) {
  instruction(spv::OpSelectionMerge, {merge, static_cast<uint32_t>(spv::SelectionControlMaskNone)});
}

std::vector<uint32_t> SpirvBuilder::finish() const {
  std::vector<uint32_t> words = {spv::MagicNumber, spirv_version_, 0u, next_id_, 0u};
  std::vector<uint32_t> memory_model;
  append(memory_model, spv::OpMemoryModel,
         {static_cast<uint32_t>(spv::AddressingModelLogical),
          static_cast<uint32_t>(spv::MemoryModelGLSL450)});
  for (const std::vector<uint32_t>* section : std::initializer_list<const std::vector<uint32_t>*>{
           &capabilities_, &extensions_, &imports_, &memory_model, &entry_points_,
           &execution_modes_, &debug_names_, &annotations_, &types_and_globals_, &function_header_,
           &function_vars_, &function_body_}) {
    words.insert(words.end(), section->begin(), section->end());
  }
  return words;
}

}  // namespace relaxc::codegen
