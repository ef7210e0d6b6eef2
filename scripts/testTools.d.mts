/** Types for scripts/testTools.mjs (plain Node: .ci/run calls it before `npm ci`). */
export interface ToolProbe {
  command?: string;
  args?: string[];
  file?: string;
}
export interface TestTool {
  pkg: string;
  probe: ToolProbe;
}
export const TEST_TOOLS: TestTool[];
export function probeTool(probe: ToolProbe): boolean;
export function missingTools(tools?: readonly TestTool[], probe?: (probe: ToolProbe) => boolean): string[];
export function installLine(packages: readonly string[]): string;
export function main(args?: string[]): number;
