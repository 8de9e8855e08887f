// ONNX converters of the recurrent operators RNN, GRU and LSTM.
//
// The recurrence is unrolled at import time: one copy of the cell per step of the
// sequence, which therefore must have a static length (the batch may be symbolic). Per
// direction, the input projection X·Wᵀ + Wb of every step is one matmul over the whole
// sequence; each step then takes its slice, adds H·Rᵀ + Rb and applies the gates:
//   RNN   h' = f(x + h·Rᵀ)
//   GRU   z, r = f(...), n = g(x_n + (r ⊙ h)·R_nᵀ + Rb_n)   (linear_before_reset = 0)
//                          n = g(x_n + r ⊙ (h·R_nᵀ + Rb_n))   (linear_before_reset = 1)
//         h' = (1 - z) ⊙ n + z ⊙ h
//   LSTM  i, f = f(... + P ⊙ c), c' = f ⊙ c + i ⊙ g(...), o = f(... + P_o ⊙ c'),
//         h' = o ⊙ h(c')
// with the gate inputs clipped to [-clip, clip] when the node gives 'clip'. A reverse
// direction runs the steps from the last to the first. With sequence_lens, step t of
// batch entry b counts only when t < sequence_lens[b]: past that the states stay as they
// were and Y is zero (a `where` per step), so Y_h is the state after the entry's last
// step in either direction. Y (seq, directions, batch, hidden) and Y_h / Y_c
// (directions, batch, hidden) are stacked from the steps; layout 1 puts the batch first
// in X, the initial states and the outputs.
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frontend/onnx/converter.h"
#include "frontend/onnx/op_helpers.h"
#include "ir/relax/ops/op_common.h"
#include "ir/tir/expr.h"

namespace relaxc::onnx_import {

namespace {

using relax::Expr;
using relax::PrimExpr;

enum class Cell { rnn, gru, lstm };

// An entry of the attribute 'activations', with the alpha and beta it takes.
struct Activation {
  std::string name;  // lower case
  double alpha = 0, beta = 0;
};

// What the cells of one direction share: the input projection of every step and the
// recurrent weights, transposed for h·Rᵀ.
struct Direction {
  Expr projected;                      // X·Wᵀ + Wb: (seq, batch, gates * hidden)
  Expr recurrent;                      // Rᵀ: (hidden, gates * hidden); GRU: of z and r only
  std::optional<Expr> recurrent_bias;  // Rb; GRU: of z and r only
  Expr candidate_weight;               // GRU: R_nᵀ (hidden, hidden)
  std::optional<Expr> candidate_bias;  // GRU: Rb_n
  std::optional<Expr> peephole;        // LSTM: P (3 * hidden): i, o, f
  std::vector<Activation> activations;
};

class Unroller {
 public:
  Unroller(NodeContext& ctx, Cell cell) : ctx_(ctx), cell_(cell) {}

  std::vector<Value> convert() {
    read_attributes();
    read_shapes();
    Expr x = ctx_.tensor(0);
    if (batch_first_) x = permute(x, {1, 0, 2});
    bool want_y = has_output(ctx_, 0);
    std::vector<Expr> ys, hs, cs;
    for (int64_t d = 0; d < directions_; ++d) {
      Direction dir = direction(x, d);
      Expr h = initial_state(5, d), c = cell_ == Cell::lstm ? initial_state(6, d) : Expr();
      std::vector<Expr> y(static_cast<size_t>(seq_length_));
      bool reverse = direction_ == "reverse" || d == 1;
      for (int64_t k = 0; k < seq_length_; ++k) {
        int64_t t = reverse ? seq_length_ - 1 - k : k;
        auto [h_next, c_next] = step(dir, take(dir.projected, t, 0), h, c);
        if (ctx_.has_input(4)) {
          Expr valid = binary(ctx_, "less", scalar(t, lengths_dtype_), lengths_);
          h_next = where(valid, h_next, h);
          if (cell_ == Cell::lstm) c_next = where(valid, c_next, c);
          if (want_y) y[static_cast<size_t>(t)] = where(valid, h_next, scalar(0, dtype_));
        } else if (want_y) {
          y[static_cast<size_t>(t)] = h_next;
        }
        h = h_next;
        c = c_next;
      }
      if (want_y) {
        // (seq, 1, batch, hidden)
        for (Expr& y_t : y) y_t = expand_dims(y_t, {0, 1});
        ys.push_back(concat(y, 0));
      }
      hs.push_back(expand_dims(h, {0}));
      if (cell_ == Cell::lstm) cs.push_back(expand_dims(c, {0}));
    }
    std::vector<Value> out(static_cast<size_t>(cell_ == Cell::lstm ? 3 : 2));
    if (want_y) {
      Expr y = concat(ys, 1);
      out[0].expr = batch_first_ ? permute(y, {2, 0, 1, 3}) : y;
    }
    if (has_output(ctx_, 1)) out[1].expr = final_states(hs);
    if (cell_ == Cell::lstm && has_output(ctx_, 2)) out[2].expr = final_states(cs);
    return out;
  }

 private:
  // ------------------------------------------------------------ attributes and shapes

  int64_t gates() const { return cell_ == Cell::rnn ? 1 : cell_ == Cell::gru ? 3 : 4; }

  void read_attributes() {
    direction_ = ctx_.attr_string("direction", "forward");
    if (direction_ != "forward" && direction_ != "reverse" && direction_ != "bidirectional") {
      ctx_.invalid("attribute 'direction' is \"" + direction_ +
                   "\"; expected forward, reverse or bidirectional");
    }
    directions_ = direction_ == "bidirectional" ? 2 : 1;
    int64_t layout = ctx_.attr_int("layout", 0);
    if (layout != 0 && layout != 1) {
      ctx_.invalid("attribute 'layout' is " + std::to_string(layout) + "; expected 0 or 1");
    }
    batch_first_ = layout == 1;
    if (ctx_.has_attr("clip")) {
      clip_ = ctx_.attr_float("clip");
      if (*clip_ <= 0) ctx_.invalid("attribute 'clip' must be positive");
    }
    if (cell_ == Cell::gru) linear_before_reset_ = ctx_.attr_int("linear_before_reset", 0) != 0;
    if (cell_ == Cell::lstm && ctx_.attr_int("input_forget", 0) != 0) {
      ctx_.unsupported(
          "attribute 'input_forget' = 1 (coupled input and forget gates) is not "
          "supported");
    }
    read_activations();
  }

  // The activations of each direction (f, and g for GRU, g and h for LSTM). An
  // activation that takes alpha (beta) takes the next entry of 'activation_alpha'
  // ('activation_beta'), or its ONNX default when the list has run out.
  void read_activations() {
    std::vector<std::string> one_direction = {"Tanh"};
    if (cell_ == Cell::gru) one_direction = {"Sigmoid", "Tanh"};
    if (cell_ == Cell::lstm) one_direction = {"Sigmoid", "Tanh", "Tanh"};
    size_t per_direction = one_direction.size();
    std::vector<std::string> defaults;
    for (int64_t d = 0; d < directions_; ++d) {
      defaults.insert(defaults.end(), one_direction.begin(), one_direction.end());
    }
    std::vector<std::string> names = ctx_.attr_strings("activations", defaults);
    if (names.size() != per_direction * static_cast<size_t>(directions_)) {
      ctx_.invalid("attribute 'activations' has " + std::to_string(names.size()) +
                   " entries; expected " + std::to_string(per_direction) + " per direction, " +
                   std::to_string(per_direction * static_cast<size_t>(directions_)) + " in all");
    }
    std::vector<double> alphas = ctx_.attr_floats("activation_alpha", std::vector<double>{});
    std::vector<double> betas = ctx_.attr_floats("activation_beta", std::vector<double>{});
    size_t next_alpha = 0, next_beta = 0;
    auto take_next = [](const std::vector<double>& values, size_t& next, double def) {
      return next < values.size() ? values[next++] : def;
    };
    for (const std::string& given : names) {
      Activation a;
      a.name = given;
      std::transform(a.name.begin(), a.name.end(), a.name.begin(),
                     [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
      if (a.name == "leakyrelu") {
        a.alpha = take_next(alphas, next_alpha, 0.01);
      } else if (a.name == "hardsigmoid") {
        a.alpha = take_next(alphas, next_alpha, 0.2);
        a.beta = take_next(betas, next_beta, 0.5);
      } else if (a.name == "affine" || a.name == "scaledtanh") {
        a.alpha = take_next(alphas, next_alpha, 1.0);
        a.beta = take_next(betas, next_beta, a.name == "affine" ? 0.0 : 1.0);
      } else if (a.name != "sigmoid" && a.name != "tanh" && a.name != "relu") {
        ctx_.unsupported("attribute 'activations': \"" + given +
                         "\" is not supported; relaxc supports Sigmoid, Tanh, Relu, "
                         "HardSigmoid, LeakyRelu, Affine and ScaledTanh");
      }
      activations_.push_back(std::move(a));
    }
  }

  // The sequence length (static), the batch and the hidden size, from X, W and R.
  void read_shapes() {
    for (size_t i : {0, 1, 2}) {
      const char* names[] = {"X", "W", "R"};
      int rank = input_rank(ctx_, i, names[i]);
      if (rank != 3) {
        ctx_.invalid("input " + std::to_string(i) + " '" + names[i] +
                     "' must have 3 dimensions, got " + std::to_string(rank));
      }
    }
    dtype_ = input_tensor(ctx_, 0, "X").dtype;
    std::vector<PrimExpr> x = input_dims(ctx_, 0, "X");
    size_t seq_axis = batch_first_ ? 1 : 0;
    const int64_t* seq = tir::as_const_int(x[seq_axis]);
    if (seq == nullptr) {
      ctx_.unsupported("input 0 'X' has a dynamic sequence length (dimension " +
                       std::to_string(seq_axis) +
                       "); relaxc unrolls the recurrence at import and needs it static");
    }
    seq_length_ = *seq;
    if (seq_length_ < 1) ctx_.unsupported("input 0 'X' has an empty sequence");
    batch_ = x[1 - seq_axis];
    std::vector<PrimExpr> r = input_dims(ctx_, 2, "R");
    const int64_t* hidden = tir::as_const_int(r[2]);
    hidden_size_ = ctx_.has_attr("hidden_size") ? ctx_.attr_int("hidden_size")
                   : hidden != nullptr          ? *hidden
                                                : 0;
    if (hidden_size_ <= 0) {
      ctx_.unsupported(
          "the hidden size is not known: the node has no attribute 'hidden_size' "
          "and dimension 2 of input 2 'R' is symbolic");
    }
    std::vector<PrimExpr> w = input_dims(ctx_, 1, "W");
    // W: (directions, gates * hidden, input); R: (directions, gates * hidden, hidden).
    std::vector<int64_t> expected = {directions_, gates() * hidden_size_, hidden_size_};
    const char* meaning[] = {" (the number of directions)", " (gates * hidden_size)",
                             " (hidden_size)"};
    for (size_t input : {1, 2}) {
      const std::vector<PrimExpr>& dims = input == 1 ? w : r;
      for (size_t axis = 0; axis < input + 1; ++axis) {
        const int64_t* value = tir::as_const_int(dims[axis]);
        if (value != nullptr && *value != expected[axis]) {
          ctx_.invalid(std::string("input ") + (input == 1 ? "1 'W'" : "2 'R'") +
                       " has dimension " + std::to_string(axis) + " = " + std::to_string(*value) +
                       "; expected " + std::to_string(expected[axis]) + meaning[axis]);
        }
      }
    }
    if (ctx_.has_input(4)) {
      lengths_dtype_ = input_tensor(ctx_, 4, "sequence_lens").dtype;
      lengths_ = expand_dims(ctx_.tensor(4), {1});  // (batch, 1)
    }
  }

  // ------------------------------------------------------------ per direction

  Direction direction(const Expr& x, int64_t d) {
    Direction dir;
    size_t per_direction = activations_.size() / static_cast<size_t>(directions_);
    dir.activations.assign(
        activations_.begin() + static_cast<std::ptrdiff_t>(d * per_direction),
        activations_.begin() + static_cast<std::ptrdiff_t>((d + 1) * per_direction));
    dir.projected = ctx_.emit_op("relax.matmul", {x, transposed(take(ctx_.tensor(1), d, 0))});
    std::optional<Expr> recurrent_bias;
    if (ctx_.has_input(3)) {
      std::vector<Expr> biases = split(take(ctx_.tensor(3), d, 0), {gates() * hidden_size_}, 0);
      dir.projected = binary(ctx_, "add", dir.projected, biases[0]);
      recurrent_bias = biases[1];
    }
    Expr r = take(ctx_.tensor(2), d, 0);
    if (cell_ == Cell::gru) {
      // z and r take h·Rᵀ; the candidate takes (r ⊙ h)·R_nᵀ or r ⊙ (h·R_nᵀ + Rb_n).
      std::vector<Expr> parts = split(r, {2 * hidden_size_}, 0);
      dir.recurrent = transposed(parts[0]);
      dir.candidate_weight = transposed(parts[1]);
      if (recurrent_bias) {
        std::vector<Expr> bias_parts = split(*recurrent_bias, {2 * hidden_size_}, 0);
        dir.recurrent_bias = bias_parts[0];
        dir.candidate_bias = bias_parts[1];
      }
    } else {
      dir.recurrent = transposed(r);
      dir.recurrent_bias = recurrent_bias;
    }
    if (cell_ == Cell::lstm && ctx_.has_input(7)) dir.peephole = take(ctx_.tensor(7), d, 0);
    return dir;
  }

  // initial_h (input 5) or initial_c (input 6) of direction d, or zeros.
  Expr initial_state(size_t input, int64_t d) {
    if (ctx_.has_input(input)) return take(ctx_.tensor(input), d, batch_first_ ? 1 : 0);
    return ctx_.emit_op("relax.zeros",
                        {relax::make_shape_expr({batch_, relax::const_dim(hidden_size_)})},
                        Attrs({{"dtype", AttrValue::data_type(dtype_)}}));
  }

  // Y_h or Y_c from the directions' (1, batch, hidden) final states.
  Expr final_states(const std::vector<Expr>& states) {
    Expr stacked = concat(states, 0);
    return batch_first_ ? permute(stacked, {1, 0, 2}) : stacked;
  }

  // ------------------------------------------------------------ one step

  // The new hidden state and (LSTM) cell state from x, the step's projected input.
  std::pair<Expr, Expr> step(const Direction& dir, const Expr& x, const Expr& h, const Expr& c) {
    Expr recurrent = ctx_.emit_op("relax.matmul", {h, dir.recurrent});
    if (dir.recurrent_bias) recurrent = binary(ctx_, "add", recurrent, *dir.recurrent_bias);
    const std::vector<Activation>& act = dir.activations;
    switch (cell_) {
      case Cell::rnn:
        return {activate(act[0], binary(ctx_, "add", x, recurrent)), Expr()};
      case Cell::gru: {
        std::vector<Expr> xs = split(x, {hidden_size_, 2 * hidden_size_}, 1);
        std::vector<Expr> hs = split(recurrent, {hidden_size_}, 1);
        Expr z = activate(act[0], binary(ctx_, "add", xs[0], hs[0]));
        Expr r = activate(act[0], binary(ctx_, "add", xs[1], hs[1]));
        Expr candidate;
        if (linear_before_reset_) {
          candidate = ctx_.emit_op("relax.matmul", {h, dir.candidate_weight});
          if (dir.candidate_bias) candidate = binary(ctx_, "add", candidate, *dir.candidate_bias);
          candidate = binary(ctx_, "multiply", r, candidate);
        } else {
          candidate =
              ctx_.emit_op("relax.matmul", {binary(ctx_, "multiply", r, h), dir.candidate_weight});
          if (dir.candidate_bias) candidate = binary(ctx_, "add", candidate, *dir.candidate_bias);
        }
        Expr n = activate(act[1], binary(ctx_, "add", xs[2], candidate));
        // (1 - z) ⊙ n + z ⊙ h = n + z ⊙ (h - n)
        Expr h_next =
            binary(ctx_, "add", n, binary(ctx_, "multiply", z, binary(ctx_, "subtract", h, n)));
        return {h_next, Expr()};
      }
      case Cell::lstm: {
        std::vector<Expr> g = split_equal(binary(ctx_, "add", x, recurrent), 4, 1);  // i, o, f, c
        std::vector<Expr> p;
        if (dir.peephole) p = split_equal(*dir.peephole, 3, 0);  // i, o, f
        auto peep = [&](Expr gate, size_t k, const Expr& state) {
          return p.empty() ? gate
                           : binary(ctx_, "add", gate, binary(ctx_, "multiply", p[k], state));
        };
        Expr i = activate(act[0], peep(g[0], 0, c));
        Expr f = activate(act[0], peep(g[2], 2, c));
        Expr c_next = binary(ctx_, "add", binary(ctx_, "multiply", f, c),
                             binary(ctx_, "multiply", i, activate(act[1], g[3])));
        Expr o = activate(act[0], peep(g[1], 1, c_next));
        return {binary(ctx_, "multiply", o, activate(act[2], c_next)), c_next};
      }
    }
    return {};
  }

  // The activation of a gate's input, clipped first when the node gives 'clip'.
  Expr activate(const Activation& a, Expr x) {
    if (clip_) {
      x = binary(ctx_, "maximum", binary(ctx_, "minimum", x, scalar(*clip_, dtype_)),
                 scalar(-*clip_, dtype_));
    }
    if (a.name == "sigmoid") return ctx_.emit_op("relax.sigmoid", {x});
    if (a.name == "tanh") return ctx_.emit_op("relax.tanh", {x});
    if (a.name == "relu") return ctx_.emit_op("relax.nn.relu", {x});
    if (a.name == "hardsigmoid") return hard_sigmoid(ctx_, x, a.alpha, a.beta);
    if (a.name == "leakyrelu") {
      return ctx_.emit_op("relax.nn.leakyrelu", {x},
                          Attrs({{"alpha", AttrValue::floating(a.alpha)}}));
    }
    if (a.name == "affine") {
      return binary(ctx_, "add", binary(ctx_, "multiply", x, scalar(a.alpha, dtype_)),
                    scalar(a.beta, dtype_));
    }
    // ScaledTanh: alpha * tanh(beta * x)
    Expr inner = binary(ctx_, "multiply", x, scalar(a.beta, dtype_));
    return binary(ctx_, "multiply", ctx_.emit_op("relax.tanh", {inner}), scalar(a.alpha, dtype_));
  }

  // ------------------------------------------------------------ Relax calls

  Expr scalar(double value, DataType dtype) { return scalar_constant(ctx_, dtype, value); }

  // x[index] along `axis`, the axis dropped.
  Expr take(const Expr& x, int64_t index, int64_t axis) {
    return ctx_.emit_op("relax.take", {x, relax::make_prim_value(relax::const_dim(index))},
                        Attrs({{"axis", AttrValue::integer(axis)}}));
  }

  Expr permute(const Expr& x, std::vector<int64_t> axes) {
    return ctx_.emit_op("relax.permute_dims", {x}, Attrs({{"axes", AttrValue::int_list(axes)}}));
  }

  Expr transposed(const Expr& x) { return permute(x, {1, 0}); }

  Expr expand_dims(const Expr& x, std::vector<int64_t> axes) {
    return ctx_.emit_op("relax.expand_dims", {x}, Attrs({{"axis", AttrValue::int_list(axes)}}));
  }

  Expr concat(const std::vector<Expr>& parts, int64_t axis) {
    if (parts.size() == 1) return parts[0];
    return ctx_.emit_op("relax.concat", {ctx_.builder().tuple(parts)},
                        Attrs({{"axis", AttrValue::integer(axis)}}));
  }

  Expr where(const Expr& condition, const Expr& a, const Expr& b) {
    return ctx_.emit_op("relax.where", {condition, a, b});
  }

  // x split along `axis` at `indices` (split), or into `sections` equal parts (split_equal).
  std::vector<Expr> split(const Expr& x, std::vector<int64_t> indices, int64_t axis) {
    return split_by(x, AttrValue::int_list(indices), indices.size() + 1, axis);
  }
  std::vector<Expr> split_equal(const Expr& x, int64_t sections, int64_t axis) {
    return split_by(x, AttrValue::integer(sections), static_cast<size_t>(sections), axis);
  }
  std::vector<Expr> split_by(const Expr& x, AttrValue how, size_t parts, int64_t axis) {
    Expr tuple = ctx_.emit_op(
        "relax.split", {x},
        Attrs({{"indices_or_sections", std::move(how)}, {"axis", AttrValue::integer(axis)}}));
    std::vector<Expr> out;
    for (size_t k = 0; k < parts; ++k) {
      out.push_back(ctx_.builder().emit(ctx_.builder().tuple_get_item(tuple, static_cast<int>(k))));
    }
    return out;
  }

  NodeContext& ctx_;
  Cell cell_;
  std::string direction_;
  int64_t directions_ = 1;
  bool batch_first_ = false;
  std::optional<double> clip_;
  bool linear_before_reset_ = false;
  std::vector<Activation> activations_;
  DataType dtype_;
  int64_t seq_length_ = 0;
  PrimExpr batch_;
  int64_t hidden_size_ = 0;
  Expr lengths_;  // sequence_lens as (batch, 1)
  DataType lengths_dtype_;
};

Converter recurrent(Cell cell) {
  return [cell](NodeContext& ctx) { return Unroller(ctx, cell).convert(); };
}

}  // namespace

void register_rnn_converters(ConverterTable& table) {
  table.add("RNN", 7, recurrent(Cell::rnn));
  table.add("GRU", 7, recurrent(Cell::gru));
  table.add("LSTM", 7, recurrent(Cell::lstm));
}

}  // namespace relaxc::onnx_import
