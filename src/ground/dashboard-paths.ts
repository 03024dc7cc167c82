/**
 * Dashboard pages that messages elsewhere point people to (the 428 of commands, the 403 of a
 * missing scope). One place, so a message and the page cannot drift apart.
 */
export const ONBOARDING_PATH = '/dashboard/onboarding';
export const KEY_SETTINGS_PATH = '/dashboard/settings/keys';
