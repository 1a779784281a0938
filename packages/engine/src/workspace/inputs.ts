import { bundleInputs, configEntry, constructsEntry } from '../build/bundle.js';

/**
 * Every file a project's load reads: its config with what that imports, and its construct files
 * with theirs (shared code of the repository included, packages from npm not). Files of a project
 * that does not build are not known; `affectedProjects` still sees a change in its directory.
 */
export async function projectInputs(project: {
  configPath: string;
  projectDir: string;
  files: readonly string[];
}): Promise<string[]> {
  const [config, constructs] = await Promise.all([
    bundleInputs(configEntry(project.configPath), project.projectDir).catch(() => [project.configPath]),
    project.files.length === 0
      ? Promise.resolve([])
      : bundleInputs(constructsEntry(project.files), project.projectDir).catch(() => [...project.files]),
  ]);
  return [...new Set([...config, ...constructs])].sort();
}
