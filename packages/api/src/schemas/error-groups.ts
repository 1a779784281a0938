import { z } from '../zod.js';
import { isoDateSchema } from './common.js';

/** An analysis as embedded in error groups: all but id nullable. */
export const embeddedRootCauseAnalysisSchema = z.looseObject({
  // Embedded analyses may come without an id (the service's contract leaves it out at times).
  id: z.string().optional(),
  created_at: isoDateSchema.nullable().optional(),
  analysis: z.looseObject({}).nullable().optional(),
  provider: z.string().nullable().optional(),
  model: z.string().nullable().optional(),
  durationMs: z.number().nullable().optional(),
  userContext: z.string().nullable().optional(),
});

export const errorGroupSchema = z.looseObject({
  id: z.string(),
  checkId: z.string(),
  errorHash: z.string(),
  cleanedErrorMessage: z.string(),
  rawErrorMessage: z.string().nullable(),
  firstSeen: isoDateSchema,
  lastSeen: isoDateSchema,
  archivedUntilNextEvent: z.boolean(),
  rootCauseAnalyses: z.array(embeddedRootCauseAnalysisSchema).optional(),
});
export type ErrorGroup = z.infer<typeof errorGroupSchema>;

export const testSessionErrorGroupSchema = z.looseObject({
  id: z.string(),
  environments: z.array(z.string()).nullable(),
  errorHash: z.string(),
  rawErrorMessage: z.string().nullable(),
  cleanedErrorMessage: z.string(),
  firstSeen: isoDateSchema,
  lastSeen: isoDateSchema,
  archivedUntilNextEvent: z.boolean(),
  pwtMetadata: z
    .array(
      z.looseObject({
        projectName: z.string(),
        testFile: z.string(),
        testTitle: z.string(),
        suitePath: z.array(z.string()),
      }),
    )
    .nullable(),
  projectId: z.string().nullable().optional(),
  rootCauseAnalyses: z.array(embeddedRootCauseAnalysisSchema).optional(),
});
export type TestSessionErrorGroup = z.infer<typeof testSessionErrorGroupSchema>;

/** Request body of both root-cause-analysis generate operations. */
export const rootCauseAnalysisGenerateSchema = z.strictObject({
  userContext: z.string().max(256).nullable().optional(),
});
export type RootCauseAnalysisGenerate = z.input<typeof rootCauseAnalysisGenerateSchema>;

export const rootCauseAnalysisPendingSchema = z.looseObject({ id: z.string(), status: z.literal('PENDING') });
export type RootCauseAnalysisPending = z.infer<typeof rootCauseAnalysisPendingSchema>;

export const rootCauseAnalysisSchema = z.looseObject({
  id: z.string(),
  checkType: z.string(),
  provider: z.string(),
  model: z.string(),
  durationMs: z.number(),
  status: z.literal('COMPLETED'),
  checkId: z.string().nullable().optional(),
  errorGroupId: z.string().nullable().optional(),
  analysis: z
    .looseObject({
      classification: z.string(),
      userImpact: z.string(),
      rootCause: z.string(),
      codeFix: z.string(),
      evidence: z.array(
        z.looseObject({
          description: z.string(),
          artifacts: z.array(z.looseObject({ name: z.string(), type: z.string() })),
        }),
      ),
      referenceLinks: z.array(z.looseObject({ url: z.string(), title: z.string() })),
    })
    .optional(),
  created_at: isoDateSchema.optional(),
});
export type RootCauseAnalysis = z.infer<typeof rootCauseAnalysisSchema>;

/** `GET /v1/root-cause-analyses/{id}`: 200 with the analysis, or 202 while it is pending. */
export const rootCauseAnalysisResultSchema = z.union([
  rootCauseAnalysisSchema,
  rootCauseAnalysisPendingSchema,
]);
export type RootCauseAnalysisResult = z.infer<typeof rootCauseAnalysisResultSchema>;
