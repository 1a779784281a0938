// The account's rate budget shared by concurrent runs (issue 48 §3), apart from the engine's main
// entry: a command that calls no account never loads it.
export { budgetCacheDir } from './budget/cache-dir.js';
export { FileAccountBudget, type FileBudgetOptions, readLedger } from './budget/file-budget.js';
export { MemoryAccountBudget } from './budget/memory-budget.js';
export { type OpenBudgetOptions, openAccountBudget } from './budget/open-budget.js';
export { PostgresAccountBudget, type PostgresBudgetOptions } from './budget/postgres-budget.js';
