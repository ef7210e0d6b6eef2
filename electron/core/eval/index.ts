/** `lathe eval`: a task suite with hidden acceptance tests, run on any model and workflow. */
export {
  defaultSuiteDir,
  hiddenTestArgv,
  loadEvalSuite,
  loadEvalTask,
  selectTasks,
  taskIdMatcher,
  EvalTaskFileSchema,
  EVAL_KINDS,
  EVAL_LANGUAGES,
  type EvalTask,
  type EvalTaskFile,
} from './taskSuite';
export { createTaskRepo, runHead } from './taskRepo';
export { runHiddenTests, type HiddenTestRequest } from './hiddenTests';
export { roleQuality, runCounts, sumRoleQuality } from './metrics';
export {
  EvalReportSchema,
  EvalTaskResultSchema,
  RoleQualitySchema,
  EVAL_REPORT_FORMAT,
  type EvalReport,
  type EvalTaskResult,
  type RoleQuality,
  type TaskOutcome,
} from './reportSchema';
export { formatSummaryTable, renderMarkdownReport, outcomeLabel, formatDurationMs } from './reportFormat';
export { runEvalTask, taskRunConfig, type EvalTaskSettings } from './runTask';
export { modelForTask } from './evalRun';
export { runEval, buildReport, writeReport, type EvalOptions } from './runEval';
