/**
 * The month's offer allowance as the pages show it (decision 0125). No zod here: the dashboard and
 * the request lists import it into the browser.
 */

/** A workshop's offers this month against its package's limit (null: none), and the package that lifts it. */
export type OfferAllowance = { used: number; limit: number | null; upgradeTo: string | null }

/**
 * The month's offers are all made (issue 32): the pages stop inviting offers and show the way to a
 * larger package instead; makeOffer refuses one more in its transaction all the same.
 */
export const allowanceReached = (allowance: Pick<OfferAllowance, 'used' | 'limit'>) => allowance.limit !== null && allowance.used >= allowance.limit
