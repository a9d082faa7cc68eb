// How many contacts one POST /contact_profiles may name (docs/analysis.md); the API's schema reads it.
export const PROFILE_CAP = 100;
