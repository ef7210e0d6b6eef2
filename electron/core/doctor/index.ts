/** `lathe doctor`: what this machine can run, and how to fix what it cannot. */
export { runDoctor, formatDoctorReport } from './runDoctor';
export { defaultProbes, electronProbe, findPackageDir, testRunnerWorks } from './probes';
export { chosenModels } from './modelChecks';
export { llamaPlatformName } from './runtimeChecks';
export {
  DoctorCheckSchema,
  DoctorReportSchema,
  CheckStatusSchema,
  type DoctorCheck,
  type DoctorReport,
  type DoctorProbes,
  type DoctorInput,
  type ChosenModel,
  type CheckStatus,
  type LlamaProbe,
} from './types';
