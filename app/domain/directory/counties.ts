/**
 * Estonia's fifteen counties (maakonnad), by a stable code: a city's county (`cities.county`) is
 * where the usual price of a service is counted (issue 35, docs/decisions/0146). Names are the
 * locale keys `common:county.<code>`.
 */
export const counties = [
	'harju',
	'hiiu',
	'ida-viru',
	'jogeva',
	'jarva',
	'laane',
	'laane-viru',
	'polva',
	'parnu',
	'rapla',
	'saare',
	'tartu',
	'valga',
	'viljandi',
	'voru',
] as const
export type County = (typeof counties)[number]

export const isCounty = (value: unknown): value is County => typeof value === 'string' && (counties as readonly string[]).includes(value)
