import { LoginPage } from '#web/features/auth/components/login-page';

export default LoginPage;
