// Rebuilds, for a recorded completion, the allowed-token mask llama.cpp's
// grammar sampler applied at every position, so a trainer can take the same
// masked softmax the engine sampled from.
#pragma once

#include <napi.h>

#include <memory>

#include "llama-resources.h"

/**
 * model.replayGrammarMasks({grammar, grammarRoot?, completionTokens, logitBiasTexts?}):
 * Promise<{vocabularySize, wordsPerPosition, allowed, logitBiasTokens}>.
 * `allowed` holds one bitset of `wordsPerPosition` 32-bit words per completion
 * token (bit t of a position set when token t was allowed there). Runs off the
 * JavaScript thread; a token the grammar rejects rejects the promise with
 * SELFPLAY_GRAMMAR_REJECTED_TOKEN naming the position.
 */
Napi::Value replayGrammarMasks(const Napi::CallbackInfo& info, std::shared_ptr<ModelResource> model);
