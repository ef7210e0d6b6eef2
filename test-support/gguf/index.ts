export { writeGgufFile, tensorByteLength, meta, GGML_TYPE, type GgufTensor, type GgufMetadataValue } from './ggufFile';
export { writeLlamaGguf, llamaMetadata, llamaTensors, TINY_LLAMA, QWEN2_0_5B, type LlamaShape } from './llamaModel';
export { buildByteBpeVocab, byteToUnicodeTable, CHATML_TEMPLATE, SPECIAL_TOKENS } from './byteBpeVocab';
export { toFloat16Bits, fromFloat16Bits, quantizeQ8_0, dequantizeQ8_0 } from './quantize';
export { writeTinyModel, writeJunkGguf, writeTruncatedCopy, type TinyModelFiles } from './fixtures';
