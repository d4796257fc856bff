import { type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { JsonLd } from '~/components/json-ld'
import { ReviewItem } from '~/components/review-item'
import { WorkshopCard } from '~/components/workshop-card'
import { FilterSelects } from '~/components/workshop-filters'
import { getFeaturedWorkshops, getFilterOptions, getLatestReviews } from '~/domain/directory/workshops.server'
import { siteSearchData } from '~/domain/site/search-data.server'
import { getSiteData } from '~/domain/site/site.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { formatDate } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { pageSeo } from '~/utils/seo.server'

export async function loader({ request }: LoaderFunctionArgs) {
	const language = await getLanguage(request)
	const t = getFixedT(language)
	const [options, featured, latestReviews, site] = await Promise.all([
		getFilterOptions(language),
		getFeaturedWorkshops(language, 6),
		getLatestReviews(language, 6),
		getSiteData(),
	])
	return {
		options,
		featured,
		latestReviews: latestReviews.map((review) => ({
			...review,
			createdLabel: formatDate(review.createdAt, language),
			repliedLabel: review.repliedAt ? formatDate(review.repliedAt, language) : null,
		})),
		searchData: siteSearchData(site, language),
		meta: pageSeo(request, language, { title: t('home.metaTitle'), description: t('home.metaDescription') }),
	}
}

export const meta = routeMeta<typeof loader>()

const steps = ['request', 'compare', 'progress', 'feedback'] as const

export default function HomePage() {
	const { options, featured, latestReviews, searchData } = useLoaderData<typeof loader>()
	const { t } = useTranslation(['public', 'common'])
	const heroFacts = [
		[t('common:home.factFree'), t('common:home.factFreeText')],
		[t('common:home.factCompare'), t('common:home.factCompareText')],
		[t('common:home.factReviews'), t('common:home.factReviewsText')],
	]
	return (
		<>
			<JsonLd data={searchData} />
			<section className="hero" aria-labelledby="hero-title">
				<div className="container hero__inner">
					<div className="hero__text">
						<p className="eyebrow">{t('common:home.eyebrow')}</p>
						<h1 id="hero-title">{t('common:home.heroTitle')}</h1>
						<p className="lead">{t('common:home.heroText')}</p>
						<div className="hero__actions">
							<ButtonLink to="/register?role=customer" kind="accent" size="large">{t('common:home.ctaCustomer')}</ButtonLink>
							<ButtonLink to="/workshop-list" kind="light" size="large">{t('common:home.browse')}</ButtonLink>
						</div>
					</div>
					<ul className="hero__facts" aria-label={t('common:home.factsLabel')}>
						{heroFacts.map(([fact, text]) => (
							<li key={fact}>
								<strong>{fact}</strong>
								<span>{text}</span>
							</li>
						))}
					</ul>
				</div>
			</section>

			<section className="home-search" aria-labelledby="search-title">
				<div className="container">
					<div className="card home-search__card">
						<h2 id="search-title" className="home-search__title">
							{t('home.searchTitle')}
						</h2>
						<Form method="get" action="/workshop-list" role="search" aria-labelledby="search-title" className="home-search__form">
							<FilterSelects query={{}} options={options} />
							<button type="submit" className="button button--primary button--large home-search__submit">
								{t('home.searchSubmit')}
							</button>
						</Form>
					</div>
				</div>
			</section>

			<HomeSection id="how-title" title={t('common:home.howTitle')}>
				<ol className="steps">
					{steps.map((step, index) => (
						<li key={step} className="step">
							<span className="step__number" aria-hidden="true">
								{index + 1}
							</span>
							<h3>{t(`common:home.steps.${step}.title`)}</h3>
							<p>{t(`common:home.steps.${step}.text`)}</p>
						</li>
					))}
				</ol>
			</HomeSection>

			{featured.length ? (
				<HomeSection
					id="featured-title"
					title={t('home.featuredTitle')}
					tinted
					more={
						<Link to="/workshop-list" className="section__more">
							{t('home.allWorkshops')}
						</Link>
					}
				>
					<ul className="workshop-grid">
						{featured.map((workshop) => (
							<li key={workshop.id}>
								<WorkshopCard workshop={workshop} />
							</li>
						))}
					</ul>
				</HomeSection>
			) : null}

			{latestReviews.length ? (
				<HomeSection id="reviews-title" title={t('home.latestReviews')}>
					<ul className="review-grid">
						{latestReviews.map((review) => (
							<li key={review.id} className="card review-card">
								<ReviewItem review={review} workshop={{ ...review.workshop, linked: true }} />
							</li>
						))}
					</ul>
				</HomeSection>
			) : null}

			<section className="section section--tinted" aria-labelledby="join-title">
				<div className="container join">
					<div className="join__card">
						<h2 id="join-title">{t('common:home.customerTitle')}</h2>
						<p>{t('common:home.customerText')}</p>
						<ButtonLink to="/register?role=customer">{t('common:home.ctaCustomerRegister')}</ButtonLink>
					</div>
					<div className="join__card join__card--dark">
						<h2>{t('common:home.workshopTitle')}</h2>
						<p>{t('common:home.workshopText')}</p>
						<ButtonLink to="/register?role=workshop" kind="accent">{t('common:home.ctaWorkshop')}</ButtonLink>
					</div>
				</div>
			</section>
		</>
	)
}

/** A band of the home page with its heading (and a link beside it). */
function HomeSection({ id, title, tinted = false, more, children }: { id: string; title: string; tinted?: boolean; more?: React.ReactNode; children: React.ReactNode }) {
	const heading = (
		<h2 id={id} className="section__title">
			{title}
		</h2>
	)
	return (
		<section className={tinted ? 'section section--tinted' : 'section'} aria-labelledby={id}>
			<div className="container">
				{more ? (
					<div className="section__header">
						{heading}
						{more}
					</div>
				) : (
					heading
				)}
				{children}
			</div>
		</section>
	)
}
