import { AccountPage } from '#web/features/auth/components/account-page';

export default AccountPage;
