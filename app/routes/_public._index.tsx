import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ReviewItem } from '~/components/review-item'
import { WorkshopCard } from '~/components/workshop-card'
import { FilterSelects } from '~/components/workshop-filters'
import { getFeaturedWorkshops, getFilterOptions, getLatestReviews } from '~/domain/workshops.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type RootLoaderData } from '~/root'
import { formatDate } from '~/utils/format'
import { pageMeta } from '~/utils/meta'
import { pageSeo } from '~/utils/seo.server'

export async function loader({ request }: LoaderFunctionArgs) {
	const language = await getLanguage(request)
	const t = getFixedT(language)
	const [options, featured, latestReviews] = await Promise.all([
		getFilterOptions(language),
		getFeaturedWorkshops(language, 6),
		getLatestReviews(6),
	])
	return {
		options,
		featured,
		latestReviews: latestReviews.map((review) => ({
			...review,
			createdLabel: formatDate(review.createdAt, language),
			repliedLabel: review.repliedAt ? formatDate(review.repliedAt, language) : null,
		})),
		meta: pageSeo(request, language, { title: t('home.metaTitle'), description: t('home.metaDescription') }),
	}
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

const steps = ['request', 'compare', 'progress', 'feedback'] as const

export default function HomePage() {
	const { options, featured, latestReviews } = useLoaderData<typeof loader>()
	const { t } = useTranslation(['public', 'common'])
	return (
		<>
			<section className="hero" aria-labelledby="hero-title">
				<div className="container hero__inner">
					<div className="hero__text">
						<p className="eyebrow">{t('common:home.eyebrow')}</p>
						<h1 id="hero-title">{t('common:home.heroTitle')}</h1>
						<p className="lead">{t('common:home.heroText')}</p>
						<div className="hero__actions">
							<Link to="/register?role=customer" className="button button--accent button--large">
								{t('common:home.ctaCustomer')}
							</Link>
							<Link to="/workshop-list" className="button button--light button--large">
								{t('common:home.browse')}
							</Link>
						</div>
					</div>
					<ul className="hero__facts" aria-label={t('common:home.factsLabel')}>
						<li>
							<strong>{t('common:home.factFree')}</strong>
							<span>{t('common:home.factFreeText')}</span>
						</li>
						<li>
							<strong>{t('common:home.factCompare')}</strong>
							<span>{t('common:home.factCompareText')}</span>
						</li>
						<li>
							<strong>{t('common:home.factReviews')}</strong>
							<span>{t('common:home.factReviewsText')}</span>
						</li>
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

			<section className="section" aria-labelledby="how-title">
				<div className="container">
					<h2 id="how-title" className="section__title">
						{t('common:home.howTitle')}
					</h2>
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
				</div>
			</section>

			{featured.length ? (
				<section className="section section--tinted" aria-labelledby="featured-title">
					<div className="container">
						<div className="section__header">
							<h2 id="featured-title" className="section__title">
								{t('home.featuredTitle')}
							</h2>
							<Link to="/workshop-list" className="section__more">
								{t('home.allWorkshops')}
							</Link>
						</div>
						<ul className="workshop-grid">
							{featured.map((workshop) => (
								<li key={workshop.id}>
									<WorkshopCard workshop={workshop} />
								</li>
							))}
						</ul>
					</div>
				</section>
			) : null}

			{latestReviews.length ? (
				<section className="section" aria-labelledby="reviews-title">
					<div className="container">
						<h2 id="reviews-title" className="section__title">
							{t('home.latestReviews')}
						</h2>
						<ul className="review-grid">
							{latestReviews.map((review) => (
								<li key={review.id} className="card review-card">
									<ReviewItem review={review} workshop={{ ...review.workshop, linked: true }} />
								</li>
							))}
						</ul>
					</div>
				</section>
			) : null}

			<section className="section section--tinted" aria-labelledby="join-title">
				<div className="container join">
					<div className="join__card">
						<h2 id="join-title">{t('common:home.customerTitle')}</h2>
						<p>{t('common:home.customerText')}</p>
						<Link to="/register?role=customer" className="button button--primary">
							{t('common:home.ctaCustomerRegister')}
						</Link>
					</div>
					<div className="join__card join__card--dark">
						<h2>{t('common:home.workshopTitle')}</h2>
						<p>{t('common:home.workshopText')}</p>
						<Link to="/register?role=workshop" className="button button--accent">
							{t('common:home.ctaWorkshop')}
						</Link>
					</div>
				</div>
			</section>
		</>
	)
}
