// Grammar cost probe (decision 74): replays node-llama-cpp 3.21.1's AddonSampler::sample on the same
// libllama (top-k 40, top-p 0.95, temperature 0.8, seeded dist; the grammar checks the one sampled token
// and is applied to the whole vocabulary only when it rejects it) and reports, per grammar, the share of
// rejected tokens, the parse stacks alive and the time of each whole-vocabulary pass.
//
// Build (llama.cpp's source is the bundle node-llama-cpp ships; the headers must be that release's):
//   git clone -q node_modules/node-llama-cpp/llama/gitRelease.bundle /tmp/llamacpp
//   B=node_modules/@node-llama-cpp/linux-x64/bins/linux-x64
//   g++ -O2 -std=c++17 -I/tmp/llamacpp/include -I/tmp/llamacpp/ggml/include -I/tmp/llamacpp/src \
//     bench/llm/grammarProbe.cpp -o /tmp/grammar-probe -L$B -l:libllama.v0.4.0.so -l:libggml.v0.4.0.so \
//     -l:libggml-base.so -Wl,-rpath,$PWD/$B
// Run: BINS=$PWD/$B THREADS=2 /tmp/grammar-probe MODEL.gguf ROUNDS TOKENS none a.gbnf b.gbnf …
// (MARK_REJECTIONS=1 marks each rejected token with ¦ in the sample text on stderr.)
#include "llama.h"
#include "ggml-backend.h"
#include "llama-grammar.h" // internal: llama_grammar_get_stacks, *_impl
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <cmath>
using clk = std::chrono::steady_clock;
static double ms(clk::time_point a, clk::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }
static std::string slurp(const char* p) { std::ifstream f(p); std::stringstream s; s << f.rdbuf(); return s.str(); }
int main(int argc, char** argv) {
  const char* model_path = argv[1]; int rounds = atoi(argv[2]); int max_tokens = atoi(argv[3]);
  std::vector<std::string> names, grammars;
  for (int i = 4; i < argc; i++) { names.push_back(argv[i]); grammars.push_back(std::string(argv[i]) == "none" ? "" : slurp(argv[i])); }
  llama_log_set([](ggml_log_level, const char*, void*) {}, nullptr);
  ggml_backend_load_all_from_path(getenv("BINS"));
  llama_backend_init();
  auto mp = llama_model_default_params(); mp.n_gpu_layers = 0;
  llama_model* model = llama_model_load_from_file(model_path, mp);
  const llama_vocab* vocab = llama_model_get_vocab(model);
  auto cp = llama_context_default_params(); cp.n_ctx = 2048; cp.n_threads = atoi(getenv("THREADS") ? getenv("THREADS") : "2"); cp.n_threads_batch = cp.n_threads;
  llama_context* ctx = llama_init_from_model(model, cp);
  int n_vocab = llama_vocab_n_tokens(vocab);
  for (size_t g = 0; g < grammars.size(); g++) {
    long tokens = 0, rejections = 0, stack_sum = 0, stack_max = 0, reject_stack_sum = 0;
    double t_check = 0, t_full = 0, t_accept = 0, t_decode = 0, t_chain = 0;
    std::string sample_text;
    for (int r = -1; r < rounds; r++) {
      std::string prompt = "<|im_start|>system\nYou are a Lathe agent. Answer with JSON only.<|im_end|>\n<|im_start|>user\nWrite src/stats.py with a median function, as JSON. (request " + std::to_string(r) + ")<|im_end|>\n<|im_start|>assistant\n";
      std::vector<llama_token> toks(prompt.size() + 8);
      int n = llama_tokenize(vocab, prompt.c_str(), prompt.size(), toks.data(), toks.size(), false, true); toks.resize(n);
      llama_memory_clear(llama_get_memory(ctx), true);
      llama_decode(ctx, llama_batch_get_one(toks.data(), toks.size()));
      auto chain = llama_sampler_chain_init(llama_sampler_chain_default_params());
      llama_sampler_chain_add(chain, llama_sampler_init_top_k(40));
      llama_sampler_chain_add(chain, llama_sampler_init_top_p(0.95, 1));
      llama_sampler_chain_add(chain, llama_sampler_init_temp(0.8));
      llama_sampler_chain_add(chain, llama_sampler_init_dist(r < 0 ? 99 : r));
      llama_grammar* gr = grammars[g].empty() ? nullptr : llama_grammar_init_impl(vocab, grammars[g].c_str(), "root", false, nullptr, 0, nullptr, 0);
      std::vector<llama_token_data> cand(n_vocab);
      std::string text;
      int limit = r < 0 ? 8 : max_tokens;
      for (int i = 0; i < limit; i++) {
        auto t0 = clk::now();
        const float* logits = llama_get_logits_ith(ctx, -1);
        for (int t = 0; t < n_vocab; t++) cand[t] = { t, logits[t], 0.0f };
        llama_token_data_array arr = { cand.data(), (size_t)n_vocab, -1, false };
        llama_sampler_apply(chain, &arr);
        auto t1 = clk::now();
        llama_token tok = arr.data[arr.selected].id;
        double c = 0, f = 0, a = 0;
        long st = gr ? (long)llama_grammar_get_stacks(gr).size() : 0;
        if (gr) {
          llama_token_data one = { tok, 1.0f, 0.0f }; llama_token_data_array oa = { &one, 1, -1, false };
          auto c0 = clk::now(); llama_grammar_apply_impl(*gr, &oa); auto c1 = clk::now(); c = ms(c0, c1);
          if (one.logit == -INFINITY) {
            if (r >= 0) { rejections++; reject_stack_sum += st; }
            for (int t = 0; t < n_vocab; t++) cand[t] = { t, logits[t], 0.0f };
            arr = { cand.data(), (size_t)n_vocab, -1, false };
            auto f0 = clk::now(); llama_grammar_apply_impl(*gr, &arr); auto f1 = clk::now(); f = ms(f0, f1);
            llama_sampler_apply(chain, &arr);
            tok = arr.data[arr.selected].id;
            if (getenv("MARK_REJECTIONS")) text += "\u00a6";
          }
          if (llama_vocab_is_eog(vocab, tok)) break;
          auto a0 = clk::now(); llama_grammar_accept_impl(*gr, tok); auto a1 = clk::now(); a = ms(a0, a1);
        }
        llama_sampler_accept(chain, tok);
        char buf[256]; int len = llama_token_to_piece(vocab, tok, buf, sizeof buf, 0, false); if (len > 0) text.append(buf, len);
        auto d0 = clk::now();
        llama_decode(ctx, llama_batch_get_one(&tok, 1));
        auto d1 = clk::now();
        if (r >= 0) { tokens++; t_check += c; t_full += f; t_accept += a; t_decode += ms(d0, d1); t_chain += ms(t0, t1); stack_sum += st; if (st > stack_max) stack_max = st; }
      }
      if (r == 0) sample_text = text;
      if (gr) llama_grammar_free_impl(gr);
      llama_sampler_free(chain);
    }
    printf("{\"grammar\":\"%s\",\"tokens\":%ld,\"rejections\":%ld,\"rejectionRate\":%.3f,\"meanStacks\":%.2f,\"maxStacks\":%ld,\"meanStacksAtRejection\":%.2f,"
           "\"msPerFullPass\":%.3f,\"msCheckPerToken\":%.4f,\"msAcceptPerToken\":%.4f,\"msGrammarPerToken\":%.3f,\"msDecodePerToken\":%.2f,\"msChainPerToken\":%.2f}\n",
           names[g].c_str(), tokens, rejections, (double)rejections / tokens, (double)stack_sum / tokens, stack_max, rejections ? (double)reject_stack_sum / rejections : 0.0,
           rejections ? t_full / rejections : 0.0, t_check / tokens, t_accept / tokens, (t_check + t_full + t_accept) / tokens, t_decode / tokens, t_chain / tokens);
    fprintf(stderr, "%s sample: %s\n", names[g].c_str(), sample_text.c_str());
  }
  llama_free(ctx); llama_model_free(model);
}
