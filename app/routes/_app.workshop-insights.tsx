import { type LinksFunction, type LoaderFunctionArgs } from 'react-router'
import { useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { FilterTabs } from '~/components/item-list'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { CostComparison, FigureCards, formatDayRange, PartnerTable, RatingChart } from '~/components/insights'
import { insightPeriods, parsePeriod } from '~/domain/insights/insights'
import { workshopInsights } from '~/domain/insights/insights.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import insightStyles from '~/styles/insights.css?url'
import { type AdsHandle } from '~/utils/ad-places'
import { requireWorkshop } from '~/utils/auth.server'
import { routeMeta } from '~/utils/meta'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: insightStyles }]

/**
 * The workshop's growth page (issue 37, decision 0155): what the portal and partner sites brought it
 * in the last 30 or 365 days (`?period=`, links, so the switch works without JavaScript), against
 * what its package cost. Another role is sent to its dashboard, as on every workshop page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const language = await getLanguage(request)
	const period = parsePeriod(new URL(request.url).searchParams.get('period'))
	const insights = await workshopInsights(actor.workshopId, period, language)
	return { meta: { title: getFixedT(language, 'workshop')('insights.title') }, insights }
}

export const meta = routeMeta<typeof loader>()

// A working page of the workshop's: no ads (app/utils/ad-places.ts).
export const handle: AdsHandle = { ads: false }

export default function WorkshopInsightsPage() {
	const { t } = useTranslation(['workshop', 'common'])
	const language = useLanguage()
	const { insights } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader title={t('insights.title')} subtitle={t('insights.subtitle')} />
			<div className="insights__period">
				<FilterTabs
					label={t('insights.periodLabel')}
					tabs={insightPeriods.map((period) => ({ to: `?period=${period}`, label: t(`insights.period.${period}`), current: period === insights.period }))}
				/>
				<p className="insights__range">{t('insights.range', { range: formatDayRange(insights.firstDay, insights.lastDay, language) })}</p>
			</div>
			<div className="stack insights">
				{insights.empty ? <p className="notice insights__empty">{t('insights.empty')}</p> : null}
				<Panel id="insights-pays" title={t('insights.compare.title')}>
					<CostComparison insights={insights} />
				</Panel>
				<Panel id="insights-seen" title={t('insights.seen.title')}>
					<FigureCards insights={insights} part="seen" />
				</Panel>
				<Panel id="insights-work" title={t('insights.work.title')}>
					<FigureCards insights={insights} part="work" />
				</Panel>
				<Panel id="insights-rating" title={t('insights.rating.title')}>
					<RatingChart rating={insights.rating} />
				</Panel>
				<Panel id="insights-partners" title={t('insights.partners.title')}>
					<PartnerTable partners={insights.partners} />
				</Panel>
			</div>
		</>
	)
}
