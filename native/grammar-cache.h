// Parses each distinct GBNF grammar once per engine and hands every request
// its own copy of the parsed grammar (a grammar's state advances per token).
#pragma once

#include <exception>
#include <map>
#include <string>
#include <utility>

#include "request-sampler.h"

class GrammarCache {
 public:
  GrammarCache(const LlamaLibrary& library, const llama_vocab* vocabulary) : library(library), vocabulary(vocabulary) {}

  /** A fresh grammar state, or null when llama.cpp cannot parse the grammar or it lacks `root`. */
  SamplerPointer stateFor(const std::string& grammar, const std::string& root) {
    const std::string key = root + '\n' + grammar;
    auto found = parsed.find(key);
    if (found == parsed.end()) {
      SamplerPointer prototype;
      try {
        prototype.reset(library.llama_sampler_init_grammar(vocabulary, grammar.c_str(), root.c_str()));
      } catch (const std::exception&) {
        // Some parse errors surface as C++ exceptions from inside llama.cpp rather than as null.
      }
      if (!prototype) return nullptr;
      // Bounded: a caller with a new schema per call must not grow memory without end.
      if (parsed.size() >= MAXIMUM_GRAMMARS) parsed.clear();
      found = parsed.emplace(key, std::move(prototype)).first;
    }
    return SamplerPointer(library.llama_sampler_clone(found->second.get()));
  }

 private:
  static constexpr size_t MAXIMUM_GRAMMARS = 64;
  const LlamaLibrary& library;
  const llama_vocab* const vocabulary;
  std::map<std::string, SamplerPointer> parsed;
};
