/** The occupations a profile can select (GET /v1/taxonomies/profile-options/occupations). */
export const OCCUPATIONS: readonly string[] = [
  'Accountant', 'Actor', 'Actuary', 'Administrative Assistant', 'AI Agent', 'AI Researcher', 'Architect',
  'Artist', 'Attorney', 'Auditor', 'Baker', 'Biologist', 'Brand Manager', 'Business Analyst', 'Carpenter',
  'Chef', 'Chemist', 'Civil Engineer', 'Cloud Architect', 'Coach', 'Community Manager', 'Consultant',
  'Content Creator', 'Copywriter', 'Customer Success Manager', 'Data Analyst', 'Data Engineer', 'Data Scientist',
  'Dentist', 'Designer', 'DevOps Engineer', 'Economist', 'Editor', 'Electrician', 'Entrepreneur',
  'Financial Analyst', 'Founder', 'Graphic Designer', 'Human Resources Manager', 'Illustrator',
  'Investor', 'Journalist', 'Lawyer', 'Librarian', 'Machine Learning Engineer', 'Marketing Manager',
  'Mechanical Engineer', 'Nurse', 'Operations Manager', 'Pharmacist', 'Photographer', 'Physician',
  'Physicist', 'Pilot', 'Product Designer', 'Product Manager', 'Professor', 'Project Manager',
  'Psychologist', 'Recruiter', 'Research Scientist', 'Sales Manager', 'Security Engineer',
  'Site Reliability Engineer', 'Social Worker', 'Software Engineer', 'Statistician', 'Student',
  'Teacher', 'Technical Writer', 'Translator', 'UX Researcher', 'Veterinarian', 'Video Producer', 'Writer',
];

const known = new Set(OCCUPATIONS);
export const isOccupation = (name: string): boolean => known.has(name);
