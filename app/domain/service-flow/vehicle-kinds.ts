/**
 * The kinds a vehicle's fuel and gearbox may be: the database's enums (app/db/schema.ts) and the
 * vehicle form's choices. Here, not in the schema, so the form's code in the browser does not pull
 * the database schema and Drizzle with it (scripts/check-client-js.mjs fails the build if it does).
 */
export const fuelTypes = ['petrol', 'diesel', 'hybrid', 'plugin_hybrid', 'electric', 'lpg', 'cng', 'other'] as const
export const transmissions = ['manual', 'automatic', 'semi_automatic', 'cvt'] as const

/**
 * A vehicle's class, which prices follow (issue 35): a workshop's price list and the usual price of
 * a service are per class. The owner says it on the vehicle form; an electric car is its own class
 * whatever its size (docs/decisions/0146).
 */
export const vehicleClasses = ['small', 'family', 'suv_van', 'electric'] as const
export type VehicleClass = (typeof vehicleClasses)[number]
/** The class a vehicle form proposes before the owner chooses: electric for an electric car, else a family car. */
export const defaultVehicleClass = (fuel: string | null | undefined): VehicleClass => (fuel === 'electric' ? 'electric' : 'family')

/** An engine's size in cm³ as the vehicle form takes it (optional; where a price depends on it, such as an oil change). */
export const ENGINE_CC_MIN = 50
export const ENGINE_CC_MAX = 10_000

/**
 * A vehicle's odometer unit (issue 32): kilometres, as Estonian odometers show, or miles where the
 * owner says so (the specification's unit, §9). Every reading is stored and computed in km; forms
 * take and pages show it in the vehicle's own unit (docs/decisions/0122).
 */
export const odometerUnits = ['km', 'mi'] as const
export type OdometerUnit = (typeof odometerUnits)[number]
export const KM_PER_MILE = 1.609344

/** The highest reading anyone may type, in the vehicle's unit: an odometer shows at most six digits. */
export const MAX_MILEAGE = 999_999

/** A reading typed in `unit`, in km (stored). A whole mile back and forth stays the same number. */
export const toKm = (value: number, unit: OdometerUnit) => (unit === 'km' ? value : Math.round(value * KM_PER_MILE))
/** A stored reading or distance (km) in `unit`, as the vehicle's owner reads it. */
export const fromKm = (km: number, unit: OdometerUnit) => (unit === 'km' ? km : Math.round(km / KM_PER_MILE))

/** A distance (km) as a text in the vehicle's unit: "61 514 km", "38 223 miles" (common:distance). */
export function distanceText(t: (key: string, options?: Record<string, unknown>) => string, km: number, unit: OdometerUnit) {
	const value = fromKm(km, unit)
	return t(`common:distance.${unit}`, { count: value, value })
}
