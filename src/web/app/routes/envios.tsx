import { OutboxPage } from '#web/features/records/components/outbox-page';

export default OutboxPage;
