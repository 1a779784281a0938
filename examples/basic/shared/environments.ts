/** Shared values, imported through the tsconfig path alias `@shared/*`. */
export const API_BASE_URL = 'https://api.acme.example';
export const SLACK_WEBHOOK = 'https://hooks.slack.example.com/services/T000/B000/acme';
