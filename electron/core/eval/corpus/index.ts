/** Real bug-fix corpora (`tasks.json` + git bundles): load, materialise offline, set up once. */
export { CorpusTaskSchema, findDefaultCorpus, loadCorpus, selectCorpusTasks, type Corpus, type CorpusTask } from './corpusTasks';
export { materializeCorpusTask } from './materialize';
export { defaultCorpusCache, preparedTaskRepo, type PreparedRepo } from './preparedRepo';
