import { AgendaPage } from '#web/features/agenda/components/agenda-page';

export default AgendaPage;
