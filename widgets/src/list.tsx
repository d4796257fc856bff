import { type FormEvent, useEffect, useId, useState } from 'react'
import { type ReferenceOption, type WorkshopListQuery, workshopListParams, workshopSorts } from '~/domain/directory/workshops'
import { formatDateTime, formatNumber, formatRating } from '~/utils/format'
import { type ApiWorkshopCard, type Filters, type WorkshopList } from './api'
import { useWidget } from './context'
import { Empty, Failure, Loading, Pager, Stars } from './ui'

/** The sorts' names: `public:list.sorts.rating` and so on. */
const SORTS = 'public:list.sorts'

export type ListOptions = { q?: string; city?: string; service?: string; brand?: string; sort?: string }

/** A filter given by the partner as a code (`tallinn`) or a name (`Tallinn`); unknown ones are dropped. */
function pick(list: ReferenceOption[], value?: string) {
	const wanted = value?.trim().toLowerCase()
	if (!wanted) return undefined
	return list.find((item) => item.code === wanted || item.name.toLowerCase() === wanted)?.code
}

function startingQuery(options: ListOptions, filters: Filters): WorkshopListQuery {
	const sort = workshopSorts.find((known) => known === options.sort) ?? 'rating'
	return {
		q: options.q?.trim().slice(0, 100) || undefined,
		city: pick(filters.cities, options.city),
		service: pick(filters.services, options.service),
		brand: pick(filters.brands, options.brand),
		sort,
		page: 1,
	}
}

type State = { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; list: WorkshopList }

/** The directory: name search, city, service, car brand, sort and pages, like /workshop-list. */
export function ListWidget({ options }: { options: ListOptions }) {
	const { api, t, language } = useWidget()
	const id = useId()
	const [filters, setFilters] = useState<Filters | null>(null)
	const [query, setQuery] = useState<WorkshopListQuery | null>(null)
	const [name, setName] = useState(options.q ?? '')
	const [state, setState] = useState<State>({ status: 'loading' })
	const [attempt, setAttempt] = useState(0)

	useEffect(() => {
		if (filters) return
		const controller = new AbortController()
		setState({ status: 'loading' })
		api.filters(controller.signal).then(
			(loaded) => {
				setFilters(loaded)
				setQuery(startingQuery(options, loaded))
			},
			(error: unknown) => controller.signal.aborted || setState({ status: 'error', error }),
		)
		return () => controller.abort()
	}, [api, filters, options, attempt])

	useEffect(() => {
		if (!query) return
		const controller = new AbortController()
		setState({ status: 'loading' })
		api.list(query, controller.signal).then(
			(list) => setState({ status: 'ready', list }),
			(error: unknown) => controller.signal.aborted || setState({ status: 'error', error }),
		)
		return () => controller.abort()
	}, [api, query, attempt])

	const change = (patch: Partial<WorkshopListQuery>) => query && setQuery({ ...query, page: 1, ...patch })
	const submit = (event: FormEvent) => {
		event.preventDefault()
		change({ q: name.trim() || undefined })
	}
	const filtered = Boolean(query && (query.q || query.city || query.service || query.brand))
	const portalList = workshopListParams({ ...query, page: 1 })

	return (
		<section className="widget widget--list" aria-labelledby={`${id}-title`}>
			<h2 id={`${id}-title`} className="widget__title">
				{t('public:list.title')}
			</h2>
			{filters && query ? (
				<form className="filters" role="search" aria-labelledby={`${id}-title`} onSubmit={submit}>
					<div className="field field--wide">
						<label htmlFor={`${id}-q`}>{t('public:search.name')}</label>
						<input id={`${id}-q`} type="search" name="q" maxLength={100} autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} />
					</div>
					<FilterSelect id={`${id}-city`} label={t('public:search.city')} any={t('public:search.anyCity')} list={filters.cities} value={query.city} onChange={(city) => change({ city })} />
					<FilterSelect id={`${id}-service`} label={t('public:search.service')} any={t('public:search.anyService')} list={filters.services} value={query.service} onChange={(service) => change({ service })} />
					<FilterSelect id={`${id}-brand`} label={t('public:search.brand')} any={t('public:search.anyBrand')} list={filters.brands} value={query.brand} onChange={(brand) => change({ brand })} />
					<div className="field">
						<label htmlFor={`${id}-sort`}>{t('public:list.sort')}</label>
						<select id={`${id}-sort`} name="sort" value={query.sort} onChange={(event) => change({ sort: event.target.value as WorkshopListQuery['sort'] })}>
							{workshopSorts.map((sort) => (
								<option key={sort} value={sort}>
									{t(`${SORTS}.${sort}`)}
								</option>
							))}
						</select>
					</div>
					<div className="actions">
						<button type="submit" className="button button--primary">
							{t('public:search.submit')}
						</button>
						{filtered ? (
							<button
								type="button"
								className="button"
								onClick={() => {
									setName('')
									change({ q: undefined, city: undefined, service: undefined, brand: undefined })
								}}
							>
								{t('public:list.clear')}
							</button>
						) : null}
					</div>
				</form>
			) : null}

			<div className="results" aria-busy={state.status === 'loading' || undefined}>
				{state.status === 'loading' ? <Loading /> : null}
				{state.status === 'error' ? <Failure error={state.error} retry={() => setAttempt((n) => n + 1)} /> : null}
				{state.status === 'ready' ? (
					<>
						<p className="results__count" role="status">
							{state.list.capped
								? t('public:list.foundMore', { total: formatNumber(state.list.total, language) })
								: state.list.total === 1
									? t('public:list.foundOne')
									: t('public:list.found', { total: formatNumber(state.list.total, language) })}
						</p>
						{state.list.promoted?.length ? (
							<aside className="promoted" aria-labelledby={`${id}-promoted`}>
								<p className="promoted__head">
									<strong id={`${id}-promoted`} className="promoted__label">
										{t('public:promoted.label')}
									</strong>{' '}
									<span className="muted">{t('public:promoted.note', { sort: t(`${SORTS}.${query?.sort ?? 'rating'}`) })}</span>
								</p>
								<ul className="cards">
									{state.list.promoted.map((workshop) => (
										<li key={workshop.id}>
											<Card workshop={workshop} />
										</li>
									))}
								</ul>
							</aside>
						) : null}
						{state.list.items.length ? (
							<ul className="cards" aria-label={t('public:list.resultsTitle')}>
								{state.list.items.map((workshop) => (
									<li key={workshop.id}>
										<Card workshop={workshop} />
									</li>
								))}
							</ul>
						) : (
							<Empty hint={t('public:list.emptyHint')} />
						)}
						<Pager page={state.list.page} totalPages={state.list.totalPages} label={t('public:list.pagination')} onPage={(page) => change({ page })} />
					</>
				) : null}
			</div>
			<p className="widget__footer">
				<a href={api.portal(`/workshop-list${portalList.size ? `?${portalList}` : ''}`)}>{t('widgets:openList')}</a>
				<a href={api.portal('/register')}>{t('widgets:register')}</a>
			</p>
		</section>
	)
}

function FilterSelect(props: { id: string; label: string; any: string; list: ReferenceOption[]; value?: string; onChange: (value: string | undefined) => void }) {
	return (
		<div className="field">
			<label htmlFor={props.id}>{props.label}</label>
			<select id={props.id} value={props.value ?? ''} onChange={(event) => props.onChange(event.target.value || undefined)}>
				<option value="">{props.any}</option>
				{props.list.map((item) => (
					<option key={item.code} value={item.code}>
						{item.name}
					</option>
				))}
			</select>
		</div>
	)
}

/** One workshop: logo, name (a link to its full profile on the portal), city, stars, reviews, services. No paid badge: see the ad block. */
function Card({ workshop }: { workshop: ApiWorkshopCard }) {
	const { t, language } = useWidget()
	return (
		<article className="card">
			<div className="card__logo">
				{workshop.logo ? <img src={workshop.logo} alt="" width={56} height={56} loading="lazy" /> : <span aria-hidden="true">{workshop.name.slice(0, 1)}</span>}
			</div>
			<div className="card__body">
				<h3 className="card__name">
					<a href={workshop.url}>{workshop.name}</a>
				</h3>
				{workshop.city ? <p className="muted">{workshop.city}</p> : null}
				<p className="rating">
					<Stars rating={workshop.ratingAverage} />
					{workshop.reviewCount > 0 ? (
						<>
							<span className="rating__value" aria-hidden="true">
								{formatRating(workshop.ratingAverage, language)}
							</span>
							<span className="muted">
								{workshop.reviewCount === 1 ? t('public:rating.reviewsOne') : t('public:rating.reviews', { total: workshop.reviewCount })}
							</span>
						</>
					) : (
						<span className="muted">{t('public:rating.noReviews')}</span>
					)}
				</p>
				{workshop.nextFree ? (
					<p className="muted">
						{t('booking:public.nextFree')}{' '}
						<a href={workshop.nextFree.url} aria-label={t('booking:public.askAt', { time: formatDateTime(workshop.nextFree.startsAt, language) })}>
							<time dateTime={workshop.nextFree.startsAt}>{formatDateTime(workshop.nextFree.startsAt, language)}</time>
						</a>
					</p>
				) : null}
				{workshop.services.length ? (
					<ul className="tags" aria-label={t('public:workshop.mainServices')}>
						{workshop.services.map((service) => (
							<li key={service}>{service}</li>
						))}
					</ul>
				) : null}
			</div>
		</article>
	)
}
