/**
 * The kinds a vehicle's fuel and gearbox may be: the database's enums (app/db/schema.ts) and the
 * vehicle form's choices. Here, not in the schema, so the form's code in the browser does not pull
 * the database schema and Drizzle with it (scripts/check-client-js.mjs fails the build if it does).
 */
export const fuelTypes = ['petrol', 'diesel', 'hybrid', 'plugin_hybrid', 'electric', 'lpg', 'cng', 'other'] as const
export const transmissions = ['manual', 'automatic', 'semi_automatic', 'cvt'] as const

/** The highest mileage (miles, spec §9) anyone may type: the vehicle's, a job's, a record's. */
export const MAX_MILEAGE = 2_000_000
