#include "generation-loop.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <set>
#include <stdexcept>

namespace {

// process.exit() runs no environment cleanup: C's exit() would destroy llama.cpp's statics under
// a loop that is still decoding. An atexit handler stops every loop first; loops stopped that way
// tell no one, since no JavaScript runs any more.
std::mutex runningLoopsMutex;
// Never destroyed: it must outlive static destruction.
auto* const runningLoops = new std::set<GenerationLoop*>();
std::atomic<bool> processExiting{false};
std::once_flag exitHandlerRegistered;

void stopLoopsAtExit() {
  processExiting.store(true);
  std::lock_guard<std::mutex> lock(runningLoopsMutex);
  for (GenerationLoop* loop : *runningLoops) loop->stop("the process is exiting");
}

}  // namespace

GenerationLoop::GenerationLoop(const LlamaLibrary& library, llama_context* context, const llama_vocab* vocabulary,
                               int32_t sequences, CallFinished onCallFinished)
    : library(library),
      context(context),
      vocabulary(vocabulary),
      vocabularySize(library.llama_vocab_n_tokens(vocabulary)),
      onCallFinished(std::move(onCallFinished)),
      slots(sequences) {
  const auto capacity = static_cast<size_t>(library.llama_n_batch(context));
  batchTokens.resize(capacity);
  batchPositions.resize(capacity);
  batchSequenceCounts.assign(capacity, 1);
  batchSequences.resize(capacity);
  batchSequencePointers.resize(capacity);
  batchOutputs.resize(capacity);
  for (size_t index = 0; index < capacity; index++) batchSequencePointers[index] = &batchSequences[index];
  std::call_once(exitHandlerRegistered, [] { std::atexit(stopLoopsAtExit); });
  {
    std::lock_guard<std::mutex> lock(runningLoopsMutex);
    runningLoops->insert(this);
  }
  batch.token = batchTokens.data();
  batch.embd = nullptr;
  batch.pos = batchPositions.data();
  batch.n_seq_id = batchSequenceCounts.data();
  batch.seq_id = batchSequencePointers.data();
  batch.logits = batchOutputs.data();
  thread = std::thread([this] { run(); });
}

GenerationLoop::~GenerationLoop() {
  stop("the native generation engine was disposed");
  std::lock_guard<std::mutex> lock(runningLoopsMutex);
  runningLoops->erase(this);
}

void GenerationLoop::submit(std::shared_ptr<GenerationCall> call) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (stopping) throw std::runtime_error("the native generation engine was disposed");
    for (size_t index = 0; index < call->requests.size(); index++) queue.push_back(Queued{call, index});
  }
  wakeUp.notify_one();
}

void GenerationLoop::wake() { wakeUp.notify_one(); }

void GenerationLoop::stop(const std::string& error) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!stopping) {
      stopping = true;
      stopError = error;
    }
  }
  wakeUp.notify_one();
  // Dispose and the exit handler may both stop a loop; only one may join its thread.
  std::lock_guard<std::mutex> lock(joinMutex);
  if (thread.joinable()) thread.join();
}

bool GenerationLoop::hasWork() const {
  return !queue.empty() || std::any_of(slots.begin(), slots.end(), [](const Slot& slot) { return slot.call != nullptr; });
}

void GenerationLoop::run() {
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mutex);
      wakeUp.wait(lock, [this] { return stopping || hasWork(); });
      if (stopping) break;
    }
    try {
      admitQueued();
      for (auto& slot : slots) {
        if (slot.call != nullptr && slot.call->aborted.load()) finish(slot, FinishReason::Abort);
      }
      if (fillBatch() == 0) continue;
      const int32_t status = library.llama_decode(context, batch);
      if (status != 0) {
        // Whatever part of the batch was decoded stays in the cache: the sequences in it cannot go on.
        for (auto& slot : slots) {
          if (slot.call != nullptr && slot.inBatch) fail(slot, "llama_decode failed with status " + std::to_string(status));
        }
        continue;
      }
      sampleOutputs();
    } catch (const std::exception& error) {
      for (auto& slot : slots) {
        if (slot.call != nullptr) fail(slot, std::string("native generation failed: ") + error.what());
      }
    }
  }
  std::deque<Queued> unstarted;
  {
    std::lock_guard<std::mutex> lock(mutex);
    unstarted.swap(queue);
  }
  for (auto& slot : slots) {
    if (slot.call != nullptr) fail(slot, stopError);
  }
  for (auto& queued : unstarted) finishQueued(queued, stopError);
}

void GenerationLoop::admitQueued() {
  std::lock_guard<std::mutex> lock(mutex);
  // Requests of aborted calls end without taking a slot, wherever they are in the queue.
  for (auto queued = queue.begin(); queued != queue.end();) {
    if (queued->call->aborted.load()) {
      finishQueued(*queued, "");
      queued = queue.erase(queued);
    } else {
      ++queued;
    }
  }
  for (auto& slot : slots) {
    if (queue.empty()) break;
    if (slot.call != nullptr) continue;
    Queued next = std::move(queue.front());
    queue.pop_front();
    occupy(slot, std::move(next));
  }
}

void GenerationLoop::occupy(Slot& slot, Queued queued) {
  // The slot holds the call first: if anything below throws, failing the slot ends the request.
  slot.call = std::move(queued.call);
  slot.requestIndex = queued.requestIndex;
  GenerationRequest& request = slot.call->requests[slot.requestIndex];
  slot.sampler = std::make_unique<RequestSampler>(library, vocabularySize, request.sampler, std::move(request.grammar),
                                                  std::move(request.logitBias));
  slot.stops = std::make_unique<StopSequences>(std::move(request.stopSequences));
  slot.promptDecoded = 0;
  slot.position = 0;
  slot.nextToken = -1;
  slot.outputIndex = -1;
}

int32_t GenerationLoop::fillBatch() {
  const auto capacity = static_cast<int32_t>(batchTokens.size());
  int32_t decoding = 0;
  for (const auto& slot : slots) decoding += slot.call != nullptr && slot.nextToken >= 0 ? 1 : 0;
  // Every decoding sequence advances each step; prompts share what is left of the batch, in slot order.
  int32_t promptRoom = capacity - decoding;
  batch.n_tokens = 0;
  for (size_t sequence = 0; sequence < slots.size(); sequence++) {
    Slot& slot = slots[sequence];
    slot.outputIndex = -1;
    slot.inBatch = false;
    if (slot.call == nullptr) continue;
    if (slot.nextToken >= 0) {
      slot.outputIndex = batch.n_tokens;
      slot.inBatch = true;
      addToBatch(slot.nextToken, slot.position++, static_cast<llama_seq_id>(sequence), true);
      slot.nextToken = -1;
      continue;
    }
    const auto& prompt = slot.call->requests[slot.requestIndex].promptTokens;
    const auto chunk = static_cast<int32_t>(std::min<size_t>(prompt.size() - slot.promptDecoded, std::max(promptRoom, 0)));
    promptRoom -= chunk;
    slot.inBatch = chunk > 0;
    for (int32_t offset = 0; offset < chunk; offset++) {
      const bool last = slot.promptDecoded + 1 == prompt.size();
      if (last) slot.outputIndex = batch.n_tokens;
      addToBatch(prompt[slot.promptDecoded], slot.position++, static_cast<llama_seq_id>(sequence), last);
      slot.promptDecoded++;
    }
  }
  return batch.n_tokens;
}

void GenerationLoop::addToBatch(llama_token token, llama_pos position, llama_seq_id sequence, bool output) {
  const int32_t index = batch.n_tokens++;
  batchTokens[index] = token;
  batchPositions[index] = position;
  batchSequences[index] = sequence;
  batchOutputs[index] = output ? 1 : 0;
}

void GenerationLoop::sampleOutputs() {
  for (auto& slot : slots) {
    if (slot.call == nullptr || slot.outputIndex < 0) continue;
    try {
      sampleOutput(slot);
    } catch (const std::exception& error) {
      fail(slot, std::string("sampling failed: ") + error.what());
    }
  }
}

void GenerationLoop::sampleOutput(Slot& slot) {
  const float* logits = library.llama_get_logits_ith(context, slot.outputIndex);
  if (logits == nullptr) return fail(slot, "llama.cpp returned no logits for a sequence");
  GenerationResult& result = slot.call->results[slot.requestIndex];
  const auto sampled = slot.sampler->sample(logits);
  if (!sampled) {
    return fail(slot, "the grammar allows no token of this model's vocabulary after " + std::to_string(result.tokens.size()) +
                          " tokens; check that the model can write what the grammar asks for");
  }
  result.tokens.push_back(sampled->token);
  result.logprobs.push_back(sampled->logprob);
  const bool endOfGeneration = library.llama_vocab_is_eog(vocabulary, sampled->token);
  slot.sampler->accept(sampled->token, endOfGeneration);
  const GenerationRequest& request = slot.call->requests[slot.requestIndex];
  if (endOfGeneration || (!slot.stops->empty() && slot.stops->append(pieceOf(sampled->token)))) {
    finish(slot, FinishReason::Stop);
  } else if (static_cast<int32_t>(result.tokens.size()) >= request.maxTokens) {
    finish(slot, FinishReason::Length);
  } else {
    slot.nextToken = sampled->token;
  }
}

std::string GenerationLoop::pieceOf(llama_token token) {
  std::string piece(16, '\0');
  int32_t length = library.llama_token_to_piece(vocabulary, token, piece.data(), static_cast<int32_t>(piece.size()), 0, false);
  if (length < 0) {
    // A negative length is the size the piece needs.
    piece.resize(static_cast<size_t>(-length));
    length = library.llama_token_to_piece(vocabulary, token, piece.data(), static_cast<int32_t>(piece.size()), 0, false);
  }
  piece.resize(static_cast<size_t>(std::max(length, 0)));
  return piece;
}

void GenerationLoop::finish(Slot& slot, FinishReason reason) {
  slot.call->results[slot.requestIndex].finishReason = reason;
  // Removing a whole sequence never fails; the next request in this slot starts from an empty cache.
  library.llama_memory_seq_rm(library.llama_get_memory(context), static_cast<llama_seq_id>(&slot - slots.data()), -1, -1);
  const auto call = std::move(slot.call);
  slot.call = nullptr;
  slot.sampler.reset();
  slot.stops.reset();
  slot.nextToken = -1;
  slot.outputIndex = -1;
  completeRequest(call);
}

void GenerationLoop::fail(Slot& slot, const std::string& error) {
  if (slot.call == nullptr) return;
  // The other requests of the call end too: the call is rejected as a whole.
  if (slot.call->error.empty()) slot.call->error = error;
  slot.call->aborted.store(true);
  finish(slot, FinishReason::Abort);
}

void GenerationLoop::finishQueued(Queued& queued, const std::string& error) {
  if (!error.empty() && queued.call->error.empty()) queued.call->error = error;
  queued.call->results[queued.requestIndex].finishReason = FinishReason::Abort;
  completeRequest(queued.call);
}

void GenerationLoop::completeRequest(const std::shared_ptr<GenerationCall>& call) {
  if (--call->unfinished == 0 && !processExiting.load()) onCallFinished(call);
}
