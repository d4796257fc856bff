import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { BillDisputeFacts } from '~/components/final-bill'
import { AdminDecisionForm } from '~/components/admin-decision-form'
import { PageHeader } from '~/components/page-header'
import { type BillDisputeItem } from '~/domain/service-flow/final-bill'
import { SettleBillSchema } from '~/domain/service-flow/final-bill-schema'
import { listBillDisputes } from '~/domain/service-flow/final-bill.server'
import { settleBill } from '~/domain/service-flow/job-moves.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatMoney } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { handleDomainError, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

/** Disputed final bills (issue 19): the open ones, oldest first, each settled here; the latest settled below. */
export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const language = await getLanguage(request)
	const t = getFixedT(language, 'admin')
	return { meta: { title: t('disputes.title') }, ...(await listBillDisputes(language)) }
}

export async function action({ request }: ActionFunctionArgs) {
	const admin = await requireUser(request, { role: 'admin' })
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const submission = parseWithZod(formData, { schema: SettleBillSchema })
	const dispute = String(formData.get('dispute') ?? '')
	if (submission.status !== 'success') return data({ dispute, result: submission.reply() }, { status: 400 })
	try {
		await or404(settleBill(admin.id, submission.value.dispute, submission.value))
	} catch (error) {
		// Settled a moment ago by another administrator: the dispute has left the open list, so the toast says it.
		return handleDomainError(error, { as: 'toast', redirectTo: '/admin/disputes', request })
	}
	return redirectWithToast('/admin/disputes', { type: 'success', key: 'admin:disputes.settled' }, { request })
}

export const meta = routeMeta<typeof loader>()

export default function AdminDisputesPage() {
	const { t } = useTranslation('admin')
	const { open, settled } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader title={t('disputes.title')} subtitle={t('disputes.count', { count: open.length })} />
			<p>{t('disputes.text')}</p>
			{open.length ? (
				<ul className="admin-list">
					{open.map((dispute) => (
						<li key={dispute.id} className="admin-list-item" aria-labelledby={`dispute-${dispute.id}`}>
							<DisputeHeading dispute={dispute} />
							<BillDisputeFacts dispute={dispute} waitingNote={false} />
							<SettleForm dispute={dispute} />
						</li>
					))}
				</ul>
			) : (
				<p className="empty">{t('disputes.none')}</p>
			)}
			{settled.length ? (
				<>
					<h2>{t('disputes.settledList')}</h2>
					<ul className="admin-list">
						{settled.map((dispute) => (
							<li key={dispute.id} className="admin-list-item" aria-labelledby={`dispute-${dispute.id}`}>
								<DisputeHeading dispute={dispute} />
								<BillDisputeFacts dispute={dispute} />
								{dispute.resolvedBy ? <p className="admin-muted">{t('disputes.settledBy', { name: dispute.resolvedBy })}</p> : null}
							</li>
						))}
					</ul>
				</>
			) : null}
		</>
	)
}

function DisputeHeading({ dispute }: { dispute: BillDisputeItem }) {
	const { t } = useTranslation('admin')
	return (
		<h3 id={`dispute-${dispute.id}`} className="admin-audit__action">
			{dispute.services} · {t('disputes.between', { customer: dispute.customerName, workshop: dispute.workshopName })}
		</h3>
	)
}

/** Settle one dispute: why, then the bill stands or the binding total is paid. */
function SettleForm({ dispute }: { dispute: BillDisputeItem }) {
	const { t } = useTranslation('admin')
	const language = useLanguage()
	const actionData = useActionData<typeof action>()
	return (
		<AdminDecisionForm
			id={dispute.id}
			idName="dispute"
			headingId={`dispute-${dispute.id}`}
			schema={SettleBillSchema}
			lastResult={actionData?.dispute === dispute.id ? actionData.result : undefined}
			note={{ label: t('disputes.note'), help: t('disputes.noteHelp') }}
			decisions={[
				{ value: 'billed', label: t('disputes.uphold', { price: formatMoney(dispute.billedCents, language) }), className: 'button--primary' },
				{ value: 'binding', label: t('disputes.binding', { price: formatMoney(dispute.bindingCents, language) }), className: 'button--accent' },
			]}
		/>
	)
}
