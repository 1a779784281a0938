// Loads the project in the current directory as `monitor validate` does and prints the load's
// timings (bundle, import, synth, policies) as JSON: a stage's own time, apart from a busy machine's
// noise in the wall time of a whole run.
import { load } from '@monitor/engine';

const project = await load({ cwd: process.cwd() });
console.log(JSON.stringify({ ...project.timings, findings: project.findings.length }));
