/**
 * What a person agrees to by registering (issue 21, decision 0107): the terms and conditions and
 * the privacy policy, each the content page of that slug. The registration form says so beside
 * its button; the consent is recorded with the version of the page they could read.
 */
export const consentKinds = ['terms', 'privacy'] as const
export type ConsentKind = (typeof consentKinds)[number]

/** The content page (spec §2) each consent is to. */
export const consentPages: Record<ConsentKind, string> = { terms: 'terms-and-conditions', privacy: 'privacy-policy' }
