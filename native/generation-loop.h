// The native generation loop: one thread per context that decodes every
// in-flight sequence together, one llama_batch per step, with continuous
// batching (a finished sequence's slot takes the next queued request at once).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "generation-call.h"
#include "stop-sequences.h"

class GenerationLoop {
 public:
  /** Called on the loop thread when every request of a call has finished (or failed). */
  using CallFinished = std::function<void(std::shared_ptr<GenerationCall>)>;

  GenerationLoop(const LlamaLibrary& library, llama_context* context, const llama_vocab* vocabulary, int32_t sequences,
                 CallFinished onCallFinished);
  /** Stops the thread; unfinished calls fail. */
  ~GenerationLoop();

  void submit(std::shared_ptr<GenerationCall> call);
  /** Lets the loop notice an aborted call at once, even while it waits for work. */
  void wake();
  /** Ends the thread after its current step; every unfinished call fails with `error`. Idempotent. */
  void stop(const std::string& error);

 private:
  /** A sequence of the context, busy with one request or free. Its index is its llama_seq_id. */
  struct Slot {
    std::shared_ptr<GenerationCall> call;
    size_t requestIndex = 0;
    std::unique_ptr<RequestSampler> sampler;
    std::unique_ptr<StopSequences> stops;
    /** Prompt tokens already in the KV cache. */
    size_t promptDecoded = 0;
    llama_pos position = 0;
    /** Sampled and not yet decoded; -1 while the prompt is still being decoded. */
    llama_token nextToken = -1;
    /** Where this slot's logits are in the current batch; -1 when it has none this step. */
    int32_t outputIndex = -1;
    /** Has tokens in the current batch: a failed decode fails only these. */
    bool inBatch = false;
  };

  /** A request waiting for a free slot. */
  struct Queued {
    std::shared_ptr<GenerationCall> call;
    size_t requestIndex;
  };

  void run();
  bool hasWork() const;
  void admitQueued();
  void occupy(Slot& slot, Queued queued);
  int32_t fillBatch();
  void addToBatch(llama_token token, llama_pos position, llama_seq_id sequence, bool output);
  void sampleOutputs();
  void sampleOutput(Slot& slot);
  std::string pieceOf(llama_token token);
  void finish(Slot& slot, FinishReason reason);
  void fail(Slot& slot, const std::string& error);
  void finishQueued(Queued& queued, const std::string& error);
  void completeRequest(const std::shared_ptr<GenerationCall>& call);

  const LlamaLibrary& library;
  llama_context* const context;
  const llama_vocab* const vocabulary;
  const int32_t vocabularySize;
  const CallFinished onCallFinished;

  std::vector<Slot> slots;
  llama_batch batch{};
  std::vector<llama_token> batchTokens;
  std::vector<llama_pos> batchPositions;
  std::vector<int32_t> batchSequenceCounts;
  std::vector<llama_seq_id> batchSequences;
  std::vector<llama_seq_id*> batchSequencePointers;
  std::vector<int8_t> batchOutputs;

  std::mutex mutex;
  std::condition_variable wakeUp;
  std::deque<Queued> queue;
  bool stopping = false;
  std::string stopError;
  std::mutex joinMutex;
  std::thread thread;
};
