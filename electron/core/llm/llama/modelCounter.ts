import { resolveChatWrapper, type LlamaModel } from 'node-llama-cpp';
import type { ChatMessage, PromptCounter } from '../types';
import { toChatHistory } from './roleSession';

/**
 * A model's own count of a prompt, chat template included, without a context: works on a model
 * loaded with `vocabOnly` (tokenizer and metadata, no weights), as the window bench loads it.
 */
export function modelCounter(model: LlamaModel, contextSize?: number): PromptCounter {
  const wrapper = resolveChatWrapper(model);
  return {
    exact: true,
    ...(contextSize === undefined ? {} : { contextSize }),
    countText: (text) => model.tokenize(text).length,
    countPrompt: (messages: readonly ChatMessage[]) =>
      wrapper.generateContextState({ chatHistory: toChatHistory(messages) }).contextText.tokenize(model.tokenizer)
        .length,
  };
}
