/** Real bug-fix corpora (`tasks.json` + git bundles): load, materialise offline, set up once. */
export {
  CorpusTaskSchema,
  findDefaultCorpus,
  loadCorpus,
  selectCorpusTasks,
  type Corpus,
  type CorpusTask,
} from './corpusTasks';
export { materializeCorpusTask } from './materialize';
export { defaultCorpusCache, preparedTaskRepo, type PreparedRepo } from './preparedRepo';
export { bareResult, fixedCommit, runBareTests, type BareRun, type BareTestResult } from './bareTests';
export {
  CorpusSummaryLineSchema,
  CorpusTaskLineSchema,
  type CorpusSummaryLine,
  type CorpusTaskLine,
} from './corpusReport';
export { corpusRunConfig, modelSpecForTask, runCorpusTask, type CorpusRunSettings } from './runCorpusTask';
export { runCorpusEval, type CorpusEvalOptions, type CorpusEvalResult } from './corpusEval';
export { VerificationCache, type VerificationCacheStats } from './verificationCache';
