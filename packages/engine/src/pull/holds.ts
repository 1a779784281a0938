import { isRefValue, isSecretValue, type PropValue } from '../import/values.js';

/** Whether a props value holds a marker (`isSecretValue`, `isRefValue`) anywhere in it. */
function holds(value: PropValue | undefined, marker: (v: PropValue) => boolean): boolean {
  if (value === undefined) return false;
  if (marker(value)) return true;
  if (Array.isArray(value)) return value.some((v) => holds(v, marker));
  if (value !== null && typeof value === 'object' && !isRefValue(value) && !isSecretValue(value))
    return Object.values(value).some((v) => holds(v, marker));
  return false;
}

/** Whether a value holds a secret anywhere in it: such a value is never written into code. */
export const holdsSecret = (value: PropValue | undefined) => holds(value, isSecretValue);
/** Whether a value refers to another resource anywhere in it. */
export const holdsRef = (value: PropValue | undefined) => holds(value, isRefValue);
