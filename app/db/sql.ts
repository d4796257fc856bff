import { sql, type SQL } from 'drizzle-orm'
import { isLanguage, type Language } from '~/i18n/config'
import { getFixedT } from '~/i18n/i18n.server'
import { offerMoves } from '~/domain/service-flow/status'
import { TIME_ZONE } from '~/utils/time'

/**
 * The query vocabulary: SQL fragments the domain's hand-written queries share, so that each idea
 * (a status list, a localized name, a month in the site's time zone) is written once. The aliases
 * are the ones every query uses: r a service request, v its vehicle, b the vehicle's brand.
 */

/**
 * `(… , …)`: a list of enum values from the status model (app/domain/service-flow/status.ts), as
 * literals so that the planner can match partial indexes such as the open-requests one. Only our
 * own constants reach it; anything but a lower-case identifier is refused.
 */
export function valueList(values: readonly string[]): SQL {
	if (!values.length || values.some((value) => !/^[a-z_]+$/.test(value))) throw new Error(`Not an enum value list: ${values.join(', ')}`)
	return sql.raw(`(${values.map((value) => `'${value}'`).join(', ')})`)
}

/**
 * A workshop (alias w) whose owner is not blocked (docs/decisions/0050-admin-area.md): the few
 * blocked accounts come from the partial index users_blocked_idx; the check is a hashed anti-join.
 */
export const workshopOwnerNotBlocked: SQL = sql`w.user_id not in (select id from users where blocked)`

/**
 * A listed workshop (alias w): it has an address (a city), which it gets with its services by
 * completing its profile (docs/decisions/0028-listed-workshops.md), and its owner is not blocked.
 * The directory shows only these, and only these are suggested to customers.
 */
export const listedWorkshop: SQL = sql`w.city_id is not null and ${workshopOwnerNotBlocked}`

/**
 * A request (alias r) matches a workshop (alias w): the workshop does one of its services, serves
 * the vehicle's brand (a workshop that lists no brands serves them all), and is in the request's
 * city when the request names one (docs/decisions/0078-matching-and-expiry.md). A request the
 * customer addressed to a workshop from its page always matches that one, and, when the customer
 * asked only it, no other (docs/decisions/0080-phone-menu-and-the-way-back.md). The one rule behind
 * who is told of a request, who sees it, who may bid on it, and whom a customer is pointed to.
 */
export function requestMatchesWorkshop(request = 'r', workshop = 'w'): SQL {
	const [r, w] = [sql.raw(identifier(request)), sql.raw(identifier(workshop))]
	return sql`(${r}.addressed_workshop_id = ${w}.id
	           or (not ${r}.addressed_only
	               and exists (select 1 from service_request_services mrs join workshop_services mws on mws.service_id = mrs.service_id
	                           where mrs.request_id = ${r}.id and mws.workshop_id = ${w}.id)
	               and (${r}.city_id is null or ${w}.city_id = ${r}.city_id)
	               and (not exists (select 1 from workshop_car_brands mwb where mwb.workshop_id = ${w}.id)
	                    or exists (select 1 from vehicles mv join workshop_car_brands mwb on mwb.car_brand_id = mv.brand_id
	                               where mv.id = ${r}.vehicle_id and mwb.workshop_id = ${w}.id))))`
}

/** `requestMatchesWorkshop` for one workshop by its id (a parameter), the request still alias r. */
export function requestMatchesWorkshopId(workshopId: string, request = 'r'): SQL {
	return sql`exists (select 1 from workshops w where w.id = ${workshopId} and ${requestMatchesWorkshop(request, 'w')})`
}

/**
 * How many requests (alias r, chosen by `where`) match one workshop: `requestMatchesWorkshop` again,
 * written for counting many requests at once (a workshop's growth page, decision 0155). The rule
 * asked of each request probes three indexes per request; here the workshop's services meet the
 * requests in one hash join and its brands' vehicles are one hashed list, so a year of requests is
 * one scan (6 s → 1.1 s on the benchmark's busiest workshop). The same rule: tests compare the two.
 */
export function countRequestsMatchingWorkshop(workshopId: string, where: SQL): SQL {
	return sql`select count(distinct r.id)::int as n
	           from service_requests r
	           left join (service_request_services mrs
	                      join workshop_services mws on mws.service_id = mrs.service_id and mws.workshop_id = ${workshopId})
	                  on mrs.request_id = r.id
	           where ${where}
	             and (r.addressed_workshop_id = ${workshopId}
	                  or (not r.addressed_only
	                      and mrs.request_id is not null
	                      and (r.city_id is null or r.city_id = (select mw.city_id from workshops mw where mw.id = ${workshopId}))
	                      and (not exists (select 1 from workshop_car_brands mwb where mwb.workshop_id = ${workshopId})
	                           or r.vehicle_id in (select mv.id from vehicles mv join workshop_car_brands mwb on mwb.car_brand_id = mv.brand_id
	                                               where mwb.workshop_id = ${workshopId}))))`
}

/** A table alias or column name of our own, checked before it is written into SQL as it is. */
function identifier(name: string): string {
	if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not an SQL identifier: ${name}`)
	return name
}

/** `c.name_et`: a reference item's name (cities, services, brands, packages …) in the reader's language. */
export function localizedName(alias: string, language: Language): SQL {
	if (!isLanguage(language)) throw new Error(`Not a language: ${String(language)}`)
	return sql.raw(`${identifier(alias)}.name_${language}`)
}

/** The names of a request's services in the reader's language, in the catalogue's order (never null). */
export function serviceNames(language: Language, request = 'r'): SQL {
	return sql`coalesce((select array_agg(${localizedName('s', language)} order by s.sort_order)
	                     from service_request_services rs join services s on s.id = rs.service_id
	                     where rs.request_id = ${sql.raw(identifier(request))}.id), '{}')`
}

/**
 * A customer's name as a workshop or an administrator sees it (`u`: an alias of users): "Mari Tamm",
 * or "Mari T." with `initial`. A deleted account's name was emptied (decision 0111): it reads
 * "Former customer" in the reader's language, as its reviews do (shownReviewer).
 */
export function customerName(language: Language, user = 'u', options: { initial?: boolean } = {}): SQL {
	const u = identifier(user)
	const name = options.initial ? `${u}.first_name || ' ' || left(${u}.last_name, 1) || '.'` : `${u}.first_name || ' ' || ${u}.last_name`
	return sql`case when ${sql.raw(`${u}.deleted_at`)} is null then ${sql.raw(name)} else ${getFixedT(language, 'common')('formerCustomer')} end`
}

/**
 * Whether the person behind `userId` (a column, e.g. sql`r.customer_id`) signed in with eID and has
 * it linked: the "verified person" mark on offers, reviews and requests (issue 36, decision 0150).
 */
export const verifiedPerson = (userId: SQL): SQL<boolean> => sql<boolean>`exists (select 1 from eid_identities e where e.user_id = ${userId})`

/**
 * A vehicle as people name it: "Toyota Corolla"; with its specification "Toyota Corolla 1.8 Hybrid"
 * or its plate "Toyota Corolla (123ABC)". Brands are proper names: the same in every language.
 */
export function vehicleLabel(detail: 'model' | 'specification' | 'registration' = 'model', vehicle = 'v', brand = 'b'): SQL {
	const [v, b] = [identifier(vehicle), identifier(brand)]
	const label = `${b}.name_en || ' ' || ${v}.model`
	if (detail === 'specification') return sql.raw(`${label} || ' ' || ${v}.model_specification`)
	if (detail === 'registration') return sql.raw(`${label} || ' (' || ${v}.registration_number || ')'`)
	return sql.raw(label)
}

/**
 * What the customer agreed to pay for an offer's job: its price and the approved extra work (issue
 * 19; `bindingTotalCents` in the browser).
 */
export function bindingTotal(offer = 'o'): SQL {
	const o = identifier(offer)
	return sql.raw(`(${o}.price_cents + ${o}.approved_extra_cents)`)
}

/**
 * A job's final price once the job is complete: a bill still waiting for the customer's answer or
 * an administrator's decision (issue 19) is no final price yet.
 */
export function finalPrice(offer = 'o'): SQL {
	const o = identifier(offer)
	return sql.raw(`case when ${o}.status = '${offerMoves.completeJob.to}' then ${o}.final_price_cents end`)
}

/**
 * The site's time zone as an SQL literal. A literal rather than a parameter so that it may stand
 * anywhere, an index's predicate included; it is our own constant, checked all the same.
 */
const timeZone = (() => {
	if (!/^[A-Za-z_]+\/[A-Za-z_]+$/.test(TIME_ZONE)) throw new Error(`Not a time zone name: ${TIME_ZONE}`)
	return sql.raw(`'${TIME_ZONE}'`)
})()

/** The instant this calendar month began in Estonian time (the monthly offer limit, "this month" counts). */
export const monthStart: SQL = sql`(date_trunc('month', now() at time zone ${timeZone}) at time zone ${timeZone})`

/** A timestamp's Estonian calendar month, 'YYYY-MM'. */
export function localMonth(column: SQL): SQL {
	return sql`to_char(${column} at time zone ${timeZone}, 'YYYY-MM')`
}

/** A timestamp's Estonian calendar day, 'YYYY-MM-DD' (compare it with `::date`). */
export function localDay(column: SQL): SQL {
	return sql`to_char(${column} at time zone ${timeZone}, 'YYYY-MM-DD')`
}

/** The instant a day ('YYYY-MM-DD', a parameter) began in Estonian time. */
export function localDayStart(day: string): SQL {
	return sql`(${day}::date::timestamp at time zone ${timeZone})`
}
