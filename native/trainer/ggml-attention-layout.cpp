#include "ggml-attention-layout.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace {

int32_t parentOf(const GgmlChunk& chunk, size_t sequence) { return chunk.sequenceParents.empty() ? -1 : chunk.sequenceParents[sequence]; }

/** Sequences no other continues: each gets a region holding its ancestors' keys and its own. */
std::vector<bool> leaves(const GgmlChunk& chunk) {
  std::vector<bool> leaf(chunk.sequenceLengths.size(), true);
  for (size_t sequence = 0; sequence < leaf.size(); sequence++) {
    const int32_t parent = parentOf(chunk, sequence);
    if (parent >= 0) leaf[static_cast<size_t>(parent)] = false;
  }
  return leaf;
}

/** Positions a leaf's region holds: its ancestors' tokens and its own. */
int64_t chainLength(const GgmlChunk& chunk, size_t sequence) {
  int64_t length = 0;
  for (int32_t member = static_cast<int32_t>(sequence); member >= 0; member = parentOf(chunk, static_cast<size_t>(member))) {
    length += chunk.sequenceLengths[static_cast<size_t>(member)];
  }
  return length;
}

int64_t aligned(int64_t value) { return (value + GGML_ATTENTION_SLOT_ALIGNMENT - 1) / GGML_ATTENTION_SLOT_ALIGNMENT * GGML_ATTENTION_SLOT_ALIGNMENT; }

/** Each sequence's first row in the chunk and first position (a continuing sequence starts after its parent's last). */
struct SequenceStarts {
  std::vector<size_t> rows;
  std::vector<int32_t> positions;
};

SequenceStarts sequenceStarts(const GgmlChunk& chunk) {
  const size_t sequences = chunk.sequenceLengths.size();
  SequenceStarts starts{std::vector<size_t>(sequences), std::vector<int32_t>(sequences)};
  size_t row = 0;
  for (size_t sequence = 0; sequence < sequences; sequence++) {
    const int32_t parent = parentOf(chunk, sequence);
    starts.rows[sequence] = row;
    starts.positions[sequence] = parent < 0 ? 0 : starts.positions[static_cast<size_t>(parent)] + chunk.sequenceLengths[static_cast<size_t>(parent)];
    row += static_cast<size_t>(chunk.sequenceLengths[sequence]);
  }
  return starts;
}

}  // namespace

int64_t ggmlAttentionSlots(const GgmlChunk& chunk) {
  const std::vector<bool> leaf = leaves(chunk);
  int64_t slots = 0;
  for (size_t sequence = 0; sequence < leaf.size(); sequence++) {
    if (leaf[sequence]) slots += aligned(chainLength(chunk, sequence));
  }
  return slots;
}

GgmlAttentionLayout ggmlAttentionLayout(const GgmlChunk& chunk) {
  const size_t tokens = chunk.tokens.size();
  const size_t sequences = chunk.sequenceLengths.size();
  const auto slots = static_cast<size_t>(ggmlAttentionSlots(chunk));
  GgmlAttentionLayout layout;
  layout.keyRows.assign(slots, 0);
  layout.mask.assign(tokens * slots, -INFINITY);
  layout.positions.assign(tokens, 0);
  layout.decoded.assign(tokens, 0.0f);

  const SequenceStarts sequenceStart = sequenceStarts(chunk);
  const std::vector<size_t>& starts = sequenceStart.rows;
  const std::vector<int32_t>& firstPositions = sequenceStart.positions;
  for (size_t sequence = 0; sequence < sequences; sequence++) {
    for (int32_t offset = 0; offset < chunk.sequenceLengths[sequence]; offset++) layout.positions[starts[sequence] + static_cast<size_t>(offset)] = firstPositions[sequence] + offset;
  }

  // Regions, leaf by leaf: slot base + position holds the key at that position of the leaf's chain.
  // A sequence's queries read the first region that holds it (any would do: the keys after it are masked).
  std::vector<int64_t> regionOf(sequences, -1);
  const std::vector<bool> leaf = leaves(chunk);
  int64_t base = 0;
  for (size_t sequence = 0; sequence < sequences; sequence++) {
    if (!leaf[sequence]) continue;
    for (int32_t member = static_cast<int32_t>(sequence); member >= 0; member = parentOf(chunk, static_cast<size_t>(member))) {
      const auto index = static_cast<size_t>(member);
      if (regionOf[index] < 0) regionOf[index] = base;
      for (int32_t offset = 0; offset < chunk.sequenceLengths[index]; offset++) {
        layout.keyRows[static_cast<size_t>(base + firstPositions[index] + offset)] = static_cast<int32_t>(starts[index]) + offset;
      }
    }
    base += aligned(chainLength(chunk, sequence));
  }
  for (size_t sequence = 0; sequence < sequences; sequence++) {
    for (int32_t offset = 0; offset < chunk.sequenceLengths[sequence]; offset++) {
      const size_t row = starts[sequence] + static_cast<size_t>(offset);
      const auto from = static_cast<size_t>(regionOf[sequence]);
      // A query sees its chain's keys up to its own position: slots base … base + position.
      for (int32_t position = 0; position <= layout.positions[row]; position++) layout.mask[row * slots + from + static_cast<size_t>(position)] = 0.0f;
    }
  }

  // Rows whose previous position scores a target were decoded one at a time.
  std::vector<bool> target(tokens, false);
  for (int32_t row : chunk.targetRows) target[static_cast<size_t>(row)] = true;
  for (size_t sequence = 0; sequence < sequences; sequence++) {
    for (int32_t offset = 0; offset < chunk.sequenceLengths[sequence]; offset++) {
      const size_t row = starts[sequence] + static_cast<size_t>(offset);
      if (layout.positions[row] == 0) continue;
      // The row of the previous position: the one before in this sequence, or its parent's last.
      size_t previous = row - 1;
      if (offset == 0) {
        const auto parent = static_cast<size_t>(parentOf(chunk, sequence));
        previous = starts[parent] + static_cast<size_t>(chunk.sequenceLengths[parent]) - 1;
      }
      if (target[previous]) layout.decoded[row] = 1.0f;
    }
  }
  layout.batched.resize(tokens);
  for (size_t row = 0; row < tokens; row++) layout.batched[row] = 1.0f - layout.decoded[row];
  return layout;
}

GgmlAttentionLayout ggmlPlainAttentionLayout(const GgmlChunk& chunk) {
  const size_t tokens = chunk.tokens.size();
  const size_t sequences = chunk.sequenceLengths.size();
  GgmlAttentionLayout layout;
  layout.positions.assign(tokens, 0);
  layout.mask.assign(tokens * tokens, -INFINITY);
  const SequenceStarts sequenceStart = sequenceStarts(chunk);
  const std::vector<size_t>& starts = sequenceStart.rows;
  const std::vector<int32_t>& firstPositions = sequenceStart.positions;
  for (size_t sequence = 0; sequence < sequences; sequence++) {
    const int32_t parent = parentOf(chunk, sequence);
    const size_t start = starts[sequence];
    const auto length = static_cast<size_t>(chunk.sequenceLengths[sequence]);
    for (size_t query = 0; query < length; query++) {
      const size_t row = start + query;
      layout.positions[row] = firstPositions[sequence] + static_cast<int32_t>(query);
      // Row = query, column = key: a token sees its own sequence up to itself, and every ancestor's tokens.
      for (size_t key = 0; key <= query; key++) layout.mask[row * tokens + start + key] = 0.0f;
      for (int32_t ancestor = parent; ancestor >= 0; ancestor = parentOf(chunk, static_cast<size_t>(ancestor))) {
        const size_t from = starts[static_cast<size_t>(ancestor)];
        std::fill(layout.mask.begin() + static_cast<std::ptrdiff_t>(row * tokens + from),
                  layout.mask.begin() + static_cast<std::ptrdiff_t>(row * tokens + from + static_cast<size_t>(chunk.sequenceLengths[static_cast<size_t>(ancestor)])), 0.0f);
      }
    }
  }
  return layout;
}
