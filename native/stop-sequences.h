// Ends a request when its completion text contains one of its stop strings.
// The text is the concatenation of the tokens' pieces (UTF-8 bytes), so a stop
// string spread over several tokens is found at the token that completes it.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

class StopSequences {
 public:
  explicit StopSequences(std::vector<std::string> sequences) : sequences(std::move(sequences)) {
    for (const auto& sequence : this->sequences) longest = std::max(longest, sequence.size());
  }

  /** Appends a token's piece; true when a stop string now appears in the text. */
  bool append(const std::string& piece) {
    if (sequences.empty()) return false;
    text += piece;
    // Only a match that ends inside the new piece is new: search from where such a match could start.
    const size_t newFrom = text.size() - piece.size();
    const size_t searchFrom = newFrom > longest ? newFrom - longest : 0;
    return std::any_of(sequences.begin(), sequences.end(),
                       [&](const std::string& sequence) { return text.find(sequence, searchFrom) != std::string::npos; });
  }

  bool empty() const { return sequences.empty(); }

 private:
  const std::vector<std::string> sequences;
  size_t longest = 0;
  std::string text;
};
