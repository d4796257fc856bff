import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useRouteLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Pagination } from '~/components/pagination'
import { ReviewItem } from '~/components/review-item'
import { Stars } from '~/components/stars'
import { ReviewPageSchema } from '~/domain/workshop-query'
import { type OpeningHours } from '~/domain/workshops'
import { getWorkshopProfile, getWorkshopReviews } from '~/domain/workshops.server'
import { fallbackLanguage } from '~/i18n/config'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type RootLoaderData } from '~/root'
import { formatDate, formatDateTime, formatNumber, formatRating } from '~/utils/format'
import { pageMeta } from '~/utils/meta'
import { decodeId } from '~/utils/public-id'
import { pageSeo } from '~/utils/seo.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
	const workshopId = decodeId(params.id)
	if (!workshopId) throw new Response('Not found', { status: 404 })
	const language = await getLanguage(request)
	const workshop = await getWorkshopProfile(workshopId, language)
	if (!workshop) throw new Response('Not found', { status: 404 })

	const { page } = ReviewPageSchema.parse({ page: new URL(request.url).searchParams.get('page') ?? undefined })
	const reviews = await getWorkshopReviews(workshopId, workshop.reviewCount, page)
	const t = getFixedT(language, 'public')
	const description = [workshop.address.city, workshop.marketingText].filter(Boolean).join(' · ')
	return {
		workshop,
		nextFreeTimes: workshop.nextFreeTimes.map((iso) => ({ iso, label: formatDateTime(iso, language) })),
		reviews: {
			...reviews,
			items: reviews.items.map((review) => ({
				...review,
				createdLabel: formatDate(review.createdAt, language),
				repliedLabel: review.repliedAt ? formatDate(review.repliedAt, language) : null,
			})),
		},
		meta: pageSeo(request, language, {
			title: workshop.address.city ? t('workshop.metaTitle', { name: workshop.name, city: workshop.address.city }) : workshop.name,
			description: description.length > 160 ? `${description.slice(0, 157).replace(/\s+\S*$/, '')}…` : description,
		}),
	}
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

export default function WorkshopDetailsPage() {
	const { workshop, reviews, nextFreeTimes } = useLoaderData<typeof loader>()
	const { t } = useTranslation('public')
	const language = useRouteLoaderData<RootLoaderData>('root')?.language ?? fallbackLanguage
	const address = [workshop.address.street, [workshop.address.zipCode, workshop.address.city].filter(Boolean).join(' '), workshop.address.state]
		.filter(Boolean)
		.join(', ')
	const reviewHref = (page: number) => `/workshop-details/${workshop.id}${page > 1 ? `?page=${page}` : ''}#reviews`

	return (
		<div className="container page-section workshop">
			<nav className="breadcrumbs" aria-label={t('workshop.breadcrumbs')}>
				<ol>
					<li>
						<Link to="/workshop-list">{t('list.title')}</Link>
					</li>
					<li aria-current="page">{workshop.name}</li>
				</ol>
			</nav>

			<header className="workshop-hero card">
				<div className="workshop-hero__logo">
					{workshop.logo ? <img src={workshop.logo} alt={t('workshop.logoAlt', { name: workshop.name })} width={112} height={112} /> : null}
				</div>
				<div className="workshop-hero__text">
					<h1 className="workshop-hero__name">{workshop.name}</h1>
					{workshop.featured ? <p className="badge badge--featured">{t('workshop.featured')}</p> : null}
					{workshop.address.city ? <p className="workshop-hero__city">{workshop.address.city}</p> : null}
					<div className="rating-summary">
						<Stars rating={workshop.ratingAverage} size="large" />
						<span className="rating-summary__value" aria-hidden="true">
							{formatRating(workshop.ratingAverage, language)}
						</span>
						<span className="rating-summary__count">
							{workshop.reviewCount === 1 ? t('rating.basedOnOne') : t('rating.basedOn', { total: workshop.reviewCount })}
						</span>
					</div>
				</div>
				<div className="workshop-hero__actions">
					<Link to="/new-service-register" className="button button--accent button--large">
						{t('workshop.askOffer')}
					</Link>
				</div>
			</header>

			<div className="workshop-layout">
				<div className="workshop-layout__main">
					{workshop.marketingText ? (
						<section className="card workshop-section" aria-labelledby="about-title">
							<h2 id="about-title">{t('workshop.about')}</h2>
							<p className="workshop-section__text">{workshop.marketingText}</p>
						</section>
					) : null}

					{workshop.photos.length ? (
						<section className="card workshop-section" aria-labelledby="photos-title">
							<h2 id="photos-title">{t('workshop.photos')}</h2>
							<ul className="gallery">
								{workshop.photos.map((photo, index) => (
									<li key={photo.url}>
										<a href={photo.url} className="gallery__link">
											<img src={photo.thumbnail} alt={t('workshop.photoAlt', { name: workshop.name, number: index + 1 })} width={480} height={320} loading="lazy" />
										</a>
									</li>
								))}
							</ul>
						</section>
					) : null}

					<section className="card workshop-section" aria-labelledby="services-title">
						<h2 id="services-title">{t('workshop.services')}</h2>
						<TagList items={workshop.services} />
						{workshop.additionalServices ? (
							<>
								<h3 className="workshop-section__subtitle">{t('workshop.additionalServices')}</h3>
								<p className="workshop-section__text">{workshop.additionalServices}</p>
							</>
						) : null}
						<h3 className="workshop-section__subtitle">{t('workshop.carBrands')}</h3>
						<TagList items={workshop.carBrands} />
						<h3 className="workshop-section__subtitle">{t('workshop.spareParts')}</h3>
						<TagList items={workshop.spareParts} />
						<h3 className="workshop-section__subtitle">{t('workshop.paymentMethods')}</h3>
						<TagList items={workshop.paymentMethods} />
					</section>

					<section className="card workshop-section" aria-labelledby="warranty-title">
						<h2 id="warranty-title">{t('workshop.warranty')}</h2>
						<dl className="facts">
							<div>
								<dt>{t('workshop.warrantyWork')}</dt>
								<dd>{workshop.warranty.workKm ? formatNumber(workshop.warranty.workKm, language) : t('workshop.notGiven')}</dd>
							</div>
							<div>
								<dt>{t('workshop.warrantyParts')}</dt>
								<dd>{workshop.warranty.partsMonths ?? t('workshop.notGiven')}</dd>
							</div>
						</dl>
						{workshop.warranty.info ? <p className="workshop-section__text">{workshop.warranty.info}</p> : null}
						{workshop.warranty.document ? (
							<p>
								<a href={workshop.warranty.document} className="button button--ghost" type="application/pdf">
									{t('workshop.warrantyDocument')}
								</a>
							</p>
						) : null}
					</section>

					<section className="card workshop-section" id="reviews" aria-labelledby="reviews-title">
						<h2 id="reviews-title">{t('reviews.title')}</h2>
						<div className="rating-summary">
							<Stars rating={workshop.ratingAverage} />
							<span className="rating-summary__value" aria-hidden="true">
								{formatRating(workshop.ratingAverage, language)}
							</span>
							<span className="rating-summary__count">
								{workshop.reviewCount === 1 ? t('rating.basedOnOne') : t('rating.basedOn', { total: workshop.reviewCount })}
							</span>
						</div>
						{reviews.items.length ? (
							<ol className="review-list">
								{reviews.items.map((review) => (
									<li key={review.id}>
										<ReviewItem review={review} workshop={{ name: workshop.name }} />
									</li>
								))}
							</ol>
						) : (
							<p className="empty-state__title">{workshop.reviewCount ? t('list.empty') : t('reviews.none')}</p>
						)}
						<Pagination page={reviews.page} totalPages={reviews.totalPages} href={reviewHref} label={t('reviews.pagination')} preventScrollReset />
					</section>
				</div>

				<aside className="workshop-layout__side">
					<section className="card workshop-section" aria-labelledby="contact-title">
						<h2 id="contact-title">{t('workshop.contact')}</h2>
						<dl className="facts facts--stacked">
							{address ? (
								<div>
									<dt>{t('workshop.address')}</dt>
									<dd>
										<address>{address}</address>
									</dd>
								</div>
							) : null}
							{workshop.phone ? (
								<div>
									<dt>{t('workshop.phone')}</dt>
									<dd>
										<a href={`tel:${workshop.phone.replace(/\s+/g, '')}`}>{workshop.phone}</a>
									</dd>
								</div>
							) : null}
							{workshop.email ? (
								<div>
									<dt>{t('workshop.email')}</dt>
									<dd>
										<a href={`mailto:${workshop.email}`}>{workshop.email}</a>
									</dd>
								</div>
							) : null}
							{workshop.website ? (
								<div>
									<dt>{t('workshop.website')}</dt>
									<dd>
										<a href={workshop.website} rel="noopener noreferrer nofollow" target="_blank">
											{workshop.website.replace(/^https?:\/\//, '').replace(/\/$/, '')}
										</a>
									</dd>
								</div>
							) : null}
							{workshop.foundedYear ? (
								<div>
									<dt>{t('workshop.founded')}</dt>
									<dd>{workshop.foundedYear}</dd>
								</div>
							) : null}
							{workshop.installersCount ? (
								<div>
									<dt>{t('workshop.installers')}</dt>
									<dd>{workshop.installersCount}</dd>
								</div>
							) : null}
						</dl>
					</section>

					<section className="card workshop-section" aria-labelledby="hours-title">
						<h2 id="hours-title">{t('workshop.openingHours')}</h2>
						<dl className="hours">
							<Hours label={t('workshop.weekdays')} hours={workshop.openingHours.weekdays} />
							<Hours label={t('workshop.saturday')} hours={workshop.openingHours.saturday} />
							<Hours label={t('workshop.sunday')} hours={workshop.openingHours.sunday} />
						</dl>
					</section>

					<section className="card workshop-section" aria-labelledby="free-title">
						<h2 id="free-title">{t('workshop.nextFreeTimes')}</h2>
						{nextFreeTimes.length ? (
							<ul className="free-times">
								{nextFreeTimes.map((time) => (
									<li key={time.iso}>
										<time dateTime={time.iso}>{time.label}</time>
									</li>
								))}
							</ul>
						) : (
							<p>{t('workshop.noFreeTimes')}</p>
						)}
					</section>
				</aside>
			</div>
		</div>
	)
}

function TagList({ items }: { items: string[] }) {
	const { t } = useTranslation('public')
	if (!items.length) return <p className="muted">{t('workshop.notGiven')}</p>
	return (
		<ul className="tags">
			{items.map((item) => (
				<li key={item} className="tag">
					{item}
				</li>
			))}
		</ul>
	)
}

function Hours({ label, hours }: { label: string; hours: OpeningHours }) {
	const { t } = useTranslation('public')
	return (
		<div className="hours__row">
			<dt>{label}</dt>
			<dd>{hours ? t('workshop.hoursRange', { opens: hours.opens, closes: hours.closes }) : t('workshop.closed')}</dd>
		</div>
	)
}
